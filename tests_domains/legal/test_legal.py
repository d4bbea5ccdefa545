from pytest_tau import domain_test
from tests_domains.legal.domain import DOMAIN

test_legal = domain_test(DOMAIN)
