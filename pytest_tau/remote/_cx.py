"""``--agent-strategy dialogflow-cx``: a Dialogflow CX agent (a playbook with client-side function tools).

Through Google's public client (``google-cloud-dialogflow-cx``, the ``cx`` extra), REST
transport. One CX session per item, its id derived from the item and unique per run. The
customer's words go in as ``QueryInput.text``; when the agent wants a tool, its answer
carries ``ResponseMessage.tool_call`` (``tool``: the Tool resource, ``action``: the function
name, ``input_parameters``): the harness runs it on the item's environment and sends
``QueryInput.tool_call_result`` (``output_parameters: {"result": <text>}``, or ``error``
when the call failed) in the next ``DetectIntent``, one per call. Text messages are what the
agent tells the customer. The first query carries ``QueryParameters.parameters.pytest_tau``
(item, domain, task, trial) for the agent's logs and test doubles.

Credentials: Application Default Credentials, resolved by google-auth, never stored or
logged by the harness; an ``http://`` endpoint (a local fake) gets anonymous credentials,
so no token ever travels unencrypted.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import threading
import uuid
from typing import TYPE_CHECKING, Any

from .._conversation import AgentStep, RequestedCall, Usage
from ._retry import RemoteError, with_retries

if TYPE_CHECKING:
    from .._strategies import StrategyContext
    from ._options import RemoteOptions

__all__ = ["SESSION_PARAMETER", "DialogflowCXAgent", "remote_error", "session_id"]

SESSION_PARAMETER = "pytest_tau"
_SCOPES = ["https://www.googleapis.com/auth/cloud-platform"]
_CREDENTIALS: Any = None
_LOCK = threading.Lock()


def session_id(item_id: str) -> str:
    """The item, readable in CX's logs, plus a random suffix: fresh per run, at most 36 bytes (CX's limit)."""
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", item_id)[:15].strip("-")
    return f"{slug}-{uuid.uuid4().hex[:20]}"


def _credentials(endpoint: str) -> Any:
    """ADC for Google's endpoints, once per process; anonymous for a plain-http local fake."""
    global _CREDENTIALS
    from google.auth.credentials import AnonymousCredentials

    if endpoint.startswith("http://"):
        return AnonymousCredentials()  # type: ignore[no-untyped-call]
    with _LOCK:
        if _CREDENTIALS is None:
            import google.auth

            _CREDENTIALS, _project = google.auth.default(scopes=_SCOPES)
        return _CREDENTIALS


def remote_error(exc: BaseException, timeout: float) -> RemoteError | None:
    """A failed ``DetectIntent`` as a `RemoteError`, or None for anything else (a bug).

    ``DetectIntent`` is not idempotent (Google's client retries it only on UNAVAILABLE):
    what cannot have been processed is retried (UNAVAILABLE, RESOURCE_EXHAUSTED, refused or
    dropped connections); a timeout, 500 or 504 may have advanced the session and is an
    item error at once, as are other 4xx (credentials, a wrong agent).
    """
    import google.auth.exceptions as auth_errors
    import requests
    from google.api_core import exceptions as api_errors
    from google.protobuf.json_format import ParseError

    if isinstance(exc, (api_errors.ServiceUnavailable, api_errors.TooManyRequests, api_errors.ResourceExhausted)):
        return RemoteError(f"{exc.code} {type(exc).__name__}: {exc.message}")
    if isinstance(exc, api_errors.GoogleAPICallError):
        return RemoteError(f"{exc.code} {type(exc).__name__}: {exc.message}", retryable=False)
    if isinstance(exc, requests.exceptions.ConnectTimeout):
        return RemoteError(f"no connection within {timeout:g}s")
    if isinstance(exc, requests.exceptions.Timeout):
        return RemoteError(f"no answer within {timeout:g}s (--remote-timeout)", retryable=False)
    if isinstance(exc, requests.exceptions.ConnectionError):
        return RemoteError(f"{type(exc).__name__}: {exc}")
    if isinstance(exc, (auth_errors.RefreshError, auth_errors.DefaultCredentialsError)):
        return RemoteError(f"Google credentials (ADC): {type(exc).__name__}: {exc}", retryable=False)
    if isinstance(exc, auth_errors.TransportError):
        return RemoteError(f"{type(exc).__name__}: {exc}")
    if isinstance(exc, ParseError):
        return RemoteError(f"malformed answer: {exc}", retryable=False)
    return None


def _restore_ints(value: Any) -> Any:
    """A protobuf Struct has only doubles: give integral numbers back their int type (``2.0`` → ``2``)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _restore_ints(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_restore_ints(item) for item in value]
    return value


class DialogflowCXAgent:
    """One item's Dialogflow CX session."""

    def __init__(self, context: StrategyContext, options: RemoteOptions) -> None:
        assert options.cx_agent is not None  # checked at start
        self.context = context
        self.options = options
        self.usage = Usage()
        self.session = f"{options.cx_agent}/sessions/{session_id(context.item_id)}"
        self._client: Any = None
        self._opened = False
        self._ids = itertools.count(1)
        self._pending: dict[str, tuple[str, str]] = {}  # call id -> (Tool resource, action)

    # -- the Agent protocol ----------------------------------------------------------
    def step(self, messages: list[dict[str, Any]]) -> AgentStep:
        from google.cloud import dialogflowcx_v3 as cx

        last = messages[-1]
        inputs: list[Any] = []
        if last["role"] == "user":
            inputs.append(cx.QueryInput(text=cx.TextInput(text=last["content"]), language_code=self.options.cx_language))
        else:
            for message in messages:
                if message["role"] == "tool" and message["tool_call_id"] in self._pending:
                    tool, action = self._pending.pop(message["tool_call_id"])
                    inputs.append(cx.QueryInput(tool_call_result=self._result(tool, action, message["content"]), language_code=self.options.cx_language))
        texts: list[str] = []
        calls: list[RequestedCall] = []
        # CX takes one tool result per query: each answer may say more or ask for more.
        for query_input in inputs:
            said, asked = self._read(self._detect(query_input))
            texts.extend(said)
            calls.extend(asked)
        return AgentStep(content="\n".join(texts), tool_calls=calls)

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):  # best effort: the item is over
                client.transport.close()

    # -- internals -------------------------------------------------------------------
    @staticmethod
    def _result(tool: str, action: str, content: str) -> Any:
        from google.cloud import dialogflowcx_v3 as cx

        if content.startswith("Error:"):  # a refused or malformed call: the agent sees a tool error
            return cx.ToolCallResult(tool=tool, action=action, error=cx.ToolCallResult.Error(message=content))
        return cx.ToolCallResult(tool=tool, action=action, output_parameters={"result": content})

    def _read(self, response: Any) -> tuple[list[str], list[RequestedCall]]:
        from google.cloud import dialogflowcx_v3 as cx
        from google.protobuf.json_format import MessageToDict

        texts: list[str] = []
        calls: list[RequestedCall] = []
        for message in response.query_result.response_messages:
            kind = cx.ResponseMessage.pb(message).WhichOneof("message")
            if kind == "text":
                texts.extend(t for t in message.text.text if t)
            elif kind == "tool_call":
                call = message.tool_call
                arguments = MessageToDict(cx.ToolCall.pb(call)).get("inputParameters", {})
                call_id = f"cx_{next(self._ids)}"
                self._pending[call_id] = (call.tool, call.action)
                calls.append(RequestedCall(id=call_id, name=self._tool_name(call.tool, call.action), arguments=_restore_ints(arguments)))
        return texts, calls

    def _tool_name(self, tool: str, action: str) -> str:
        """The domain's tool a call names: the function's name is the action (the Tool's display name)."""
        tools = self.context.domain.tools
        if action in tools:
            return action
        resource_id = tool.rsplit("/", 1)[-1]
        return resource_id if resource_id in tools else action or resource_id  # unknown: a tool error to the agent

    def _connect(self) -> Any:
        if self._client is None:
            from google.api_core.client_options import ClientOptions
            from google.cloud import dialogflowcx_v3 as cx

            endpoint = self.options.cx_api_endpoint
            self._client = cx.SessionsClient(
                credentials=_credentials(endpoint), transport="rest", client_options=ClientOptions(api_endpoint=endpoint)
            )
        return self._client

    def _detect(self, query_input: Any) -> Any:
        from google.cloud import dialogflowcx_v3 as cx

        request = cx.DetectIntentRequest(session=self.session, query_input=query_input)
        if not self._opened:
            context = self.context
            tag = {"item": context.item_id, "domain": context.domain.name, "task": context.task.id, "trial": context.trial}
            request.query_params = cx.QueryParameters(parameters={SESSION_PARAMETER: tag})
        timeout = self.options.timeout

        def attempt() -> Any:
            try:
                response = self._connect().detect_intent(request=request, retry=None, timeout=timeout)
            except Exception as exc:
                error = remote_error(exc, timeout)
                if error is None:
                    raise
                raise error from None
            return response

        what = f"dialogflow-cx {self.options.cx_agent} ({self.options.cx_api_endpoint})"
        response = with_retries(attempt, what=what, retries=self.options.retries, backoff=self.options.backoff)
        self._opened = True
        self.usage.calls += 1
        return response
