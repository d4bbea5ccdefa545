from pytest_tau import domain_test
from tests_domains.loans.domain import DOMAIN

test_loans = domain_test(DOMAIN)
