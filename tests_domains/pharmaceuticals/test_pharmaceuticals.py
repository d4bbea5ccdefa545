from pytest_tau import domain_test
from tests_domains.pharmaceuticals.domain import DOMAIN

test_pharmaceuticals = domain_test(DOMAIN)
