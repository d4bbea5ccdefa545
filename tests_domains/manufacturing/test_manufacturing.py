from pytest_tau import domain_test
from tests_domains.manufacturing.domain import DOMAIN

test_manufacturing = domain_test(DOMAIN)
