from pytest_tau import domain_test
from tests_domains.logistics.domain import DOMAIN

test_logistics = domain_test(DOMAIN)
