from pytest_tau import domain_test
from tests_domains.sales.domain import DOMAIN

test_sales = domain_test(DOMAIN)
