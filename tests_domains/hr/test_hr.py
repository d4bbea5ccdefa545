from pytest_tau import domain_test
from tests_domains.hr.domain import DOMAIN

test_hr = domain_test(DOMAIN)
