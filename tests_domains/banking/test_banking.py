from pytest_tau import domain_test
from tests_domains.banking.domain import DOMAIN

test_banking = domain_test(DOMAIN)
