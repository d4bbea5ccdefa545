from pytest_tau import domain_test
from tests_domains.engineering.domain import DOMAIN

test_engineering = domain_test(DOMAIN)
