from pytest_tau import domain_test
from tests_domains.construction.domain import DOMAIN

test_construction = domain_test(DOMAIN)
