from pytest_tau import domain_test
from tests_domains.agriculture.domain import DOMAIN

test_agriculture = domain_test(DOMAIN)
