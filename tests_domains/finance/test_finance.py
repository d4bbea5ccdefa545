from pytest_tau import domain_test
from tests_domains.finance.domain import DOMAIN

test_finance = domain_test(DOMAIN)
