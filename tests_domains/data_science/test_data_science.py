from pytest_tau import domain_test
from tests_domains.data_science.domain import DOMAIN

test_data_science = domain_test(DOMAIN)
