from pytest_tau import domain_test
from tests_domains.space.domain import DOMAIN

test_space = domain_test(DOMAIN)
