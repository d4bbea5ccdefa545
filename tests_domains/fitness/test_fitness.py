from pytest_tau import domain_test
from tests_domains.fitness.domain import DOMAIN

test_fitness = domain_test(DOMAIN)
