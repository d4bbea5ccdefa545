from pytest_tau import domain_test
from tests_domains.real_estate.domain import DOMAIN

test_real_estate = domain_test(DOMAIN)
