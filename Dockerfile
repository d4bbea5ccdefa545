# The pytest-tau score service: docker build -t pytest-tau . && docker run -p 8000:8000 -e TAU_SERVICE_TOKEN=... pytest-tau
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TAU_SERVICE_HOST=0.0.0.0 \
    TAU_SERVICE_PORT=8000 \
    TAU_SERVICE_PROJECT=/data \
    TAU_SERVICE_RUNS=/runs

RUN groupadd --system --gid 10001 tau && useradd --system --uid 10001 --gid tau --home-dir /home/tau --create-home tau

WORKDIR /opt/pytest-tau
COPY pyproject.toml README.md ./
COPY .ci/constraints.txt .ci/constraints.txt
COPY pytest_tau ./pytest_tau
RUN pip install -c .ci/constraints.txt ".[llm,service]"

# The benchmark's domains and their data (replace the volume to serve your own), and the runs.
COPY --chown=tau:tau conftest.py pyproject.toml /data/
COPY --chown=tau:tau tests_domains /data/tests_domains
COPY --chown=tau:tau fixtures /data/fixtures
RUN mkdir -p /runs && chown tau:tau /runs
VOLUME ["/data", "/runs"]

USER 10001:10001
WORKDIR /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["python", "-m", "pytest_tau.service.healthcheck"]
ENTRYPOINT ["python", "-m", "pytest_tau.service"]
CMD ["--host", "0.0.0.0", "--port", "8000"]
