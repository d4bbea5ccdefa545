from pytest_tau import domain_test
from tests_domains.events.domain import DOMAIN

test_events = domain_test(DOMAIN)
