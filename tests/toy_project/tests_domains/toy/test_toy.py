from pytest_tau import domain_test
from tests_domains.toy.domain import DOMAIN

test_toy = domain_test(DOMAIN)
