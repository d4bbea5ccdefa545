from pytest_tau import domain_test
from tests_domains.hospitality.domain import DOMAIN

test_hospitality = domain_test(DOMAIN)
