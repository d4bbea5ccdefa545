from pytest_tau import domain_test
from tests_domains.web_automation.domain import DOMAIN

test_web_automation = domain_test(DOMAIN)
