from pytest_tau import domain_test
from tests_domains.airline.domain import DOMAIN

test_airline = domain_test(DOMAIN)
