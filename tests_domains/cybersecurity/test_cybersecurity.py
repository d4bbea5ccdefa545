from pytest_tau import domain_test, dump_db
from tests_domains.cybersecurity.domain import DOMAIN
from tests_domains.cybersecurity.generate import generate_user

test_cybersecurity = domain_test(DOMAIN)


def test_generator_reproduces_the_user_db() -> None:
    """The employees' laptops (user_db.json) come from the same seeded generator, byte for byte."""
    assert dump_db(generate_user()) == (DOMAIN.fixtures / "user_db.json").read_bytes()
