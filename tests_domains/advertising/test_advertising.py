from pytest_tau import domain_test
from tests_domains.advertising.domain import DOMAIN

test_advertising = domain_test(DOMAIN)
