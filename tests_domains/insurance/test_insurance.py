from pytest_tau import domain_test
from tests_domains.insurance.domain import DOMAIN

test_insurance = domain_test(DOMAIN)
