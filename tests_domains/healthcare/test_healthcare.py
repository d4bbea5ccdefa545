from pytest_tau import domain_test
from tests_domains.healthcare.domain import DOMAIN

test_healthcare = domain_test(DOMAIN)
