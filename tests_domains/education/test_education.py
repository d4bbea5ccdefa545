from pytest_tau import domain_test
from tests_domains.education.domain import DOMAIN

test_education = domain_test(DOMAIN)
