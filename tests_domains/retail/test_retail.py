from pytest_tau import domain_test
from tests_domains.retail.domain import DOMAIN

test_retail = domain_test(DOMAIN)
