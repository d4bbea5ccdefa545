from pytest_tau import domain_test
from tests_domains.accounting.domain import DOMAIN

test_accounting = domain_test(DOMAIN)
