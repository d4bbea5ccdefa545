from pytest_tau import domain_test
from tests_domains.cybersecurity.domain import DOMAIN

# The user DB's generator check lives with the other generator checks (tests/test_domains.py):
# a test here would be collected in every benchmark run.
test_cybersecurity = domain_test(DOMAIN)
