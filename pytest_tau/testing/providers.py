"""Loopback fakes of each provider's wire format, so every route litellm takes is tested offline.

    from pytest_tau.testing import OracleModel
    from pytest_tau.testing.providers import ProviderServer

    with ProviderServer("anthropic", OracleModel(domains)) as server:
        os.environ.update(server.environment)
        ...  # --model server.model --api-base server.url

Each fake reads the request as its provider would (Anthropic Messages, Bedrock Converse,
Gemini and Vertex ``generateContent``, Vertex's Claude ``rawPredict``, Mistral, vLLM,
llama-cpp-python's server), turns it into the OpenAI-shaped request a `Reply` handler
(such as `OracleModel`) understands, and answers in the provider's own format. What the real
servers refuse or silently drop is reproduced, so the harness is tested against it:

- ``vllm`` started without ``--enable-auto-tool-choice --tool-call-parser`` (``tool_flags=False``)
  answers 400 to every request with tools;
- a Llama 3.x chat template (``single_call_turns=True``) refuses a history with two calls
  in one assistant turn;
- ``llamacpp`` (a function-calling chat format) drops the tools of a request without ``tool_choice``;
- ``mistral`` refuses tool call ids that are not 9 letters or digits;
- every fake with ``context_window`` refuses a prompt longer than that, with its provider's
  message, and cuts an answer at the request's ``max_tokens`` (``finish_reason: length``).

Prompt tokens are counted as a quarter of the characters of the messages and tools, so a
request whose tools were dropped shows far fewer of them, as it does on a real server.
"""

from __future__ import annotations

import itertools
import json
import re
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, get_args
from urllib.parse import unquote

from . import Reply, prompt_tokens
from ._loopback import JsonHandler, LoopbackServer

__all__ = ["ROUTES", "ProviderServer", "Route", "prompt_tokens"]

Route = Literal["openai", "anthropic", "bedrock", "gemini", "vertex", "vertex-claude", "mistral", "vllm", "llamacpp"]
ROUTES: tuple[Route, ...] = get_args(Route)

# The litellm model string of each route (any model name works against the fake; these are real ones).
_MODELS: dict[Route, str] = {
    "openai": "openai/gpt-4o-mini",
    "anthropic": "anthropic/claude-3-5-sonnet-20241022",
    "bedrock": "bedrock/converse/anthropic.claude-3-5-sonnet-20240620-v1:0",
    "gemini": "gemini/gemini-2.5-flash",
    "vertex": "vertex_ai/gemini-2.5-flash",
    "vertex-claude": "vertex_ai/claude-3-5-sonnet@20240620",
    "mistral": "mistral/mistral-large-latest",
    "vllm": "hosted_vllm/Qwen/Qwen2.5-7B-Instruct",
    "llamacpp": "openai/gemma-3-270m-it",
}

_VLLM_TOOL_CHOICE = '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'
_LLAMA3_SINGLE_CALL = "This model only supports single tool-calls at once!"


class _Refused(Exception):
    def __init__(self, status: int, payload: dict[str, Any]) -> None:
        super().__init__(payload)
        self.status = status
        self.payload = payload


def _text(content: Any) -> str:
    """Text of an Anthropic/Bedrock/Gemini content value (a string or a list of blocks)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    parts = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif "text" in block:
            parts.append(block["text"])
        elif "json" in block:
            parts.append(json.dumps(block["json"]))
    return "".join(parts)


def _tool(name: str, description: str, parameters: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


def _call(call_id: str, name: str, arguments: Any) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


# -- requests, read as each provider reads them -----------------------------------------


def _from_anthropic(body: dict[str, Any]) -> dict[str, Any]:
    messages: list[dict[str, Any]] = []
    if body.get("system"):
        messages.append({"role": "system", "content": _text(body["system"])})
    for message in body["messages"]:
        blocks = message["content"] if isinstance(message["content"], list) else [{"type": "text", "text": message["content"]}]
        if message["role"] == "assistant":
            calls = [_call(b["id"], b["name"], b["input"]) for b in blocks if b["type"] == "tool_use"]
            said = "".join(b["text"] for b in blocks if b["type"] == "text")
            messages.append({"role": "assistant", "content": said or None, **({"tool_calls": calls} if calls else {})})
            continue
        for block in blocks:
            if block["type"] == "tool_result":
                messages.append({"role": "tool", "tool_call_id": block["tool_use_id"], "content": _text(block.get("content"))})
        said = "".join(b["text"] for b in blocks if b["type"] == "text")
        if said or not any(b["type"] == "tool_result" for b in blocks):
            messages.append({"role": "user", "content": said})
    tools = [_tool(t["name"], t.get("description", ""), t["input_schema"]) for t in body.get("tools") or []]
    return {"messages": messages, "tools": tools, "max_tokens": body.get("max_tokens"), "tool_choice": body.get("tool_choice")}


def _from_bedrock(body: dict[str, Any]) -> dict[str, Any]:
    messages: list[dict[str, Any]] = []
    if body.get("system"):
        messages.append({"role": "system", "content": _text(body["system"])})
    for message in body["messages"]:
        blocks = message["content"]
        if message["role"] == "assistant":
            calls = [_call(b["toolUse"]["toolUseId"], b["toolUse"]["name"], b["toolUse"]["input"]) for b in blocks if "toolUse" in b]
            said = "".join(b["text"] for b in blocks if "text" in b)
            messages.append({"role": "assistant", "content": said or None, **({"tool_calls": calls} if calls else {})})
            continue
        for block in blocks:
            if "toolResult" in block:
                result = block["toolResult"]
                messages.append({"role": "tool", "tool_call_id": result["toolUseId"], "content": _text(result.get("content"))})
        said = "".join(b["text"] for b in blocks if "text" in b)
        if said or not any("toolResult" in b for b in blocks):
            messages.append({"role": "user", "content": said})
    specs = [t["toolSpec"] for t in (body.get("toolConfig") or {}).get("tools", []) if "toolSpec" in t]
    tools = [_tool(s["name"], s.get("description", ""), s["inputSchema"]["json"]) for s in specs]
    config = body.get("inferenceConfig") or {}
    return {"messages": messages, "tools": tools, "max_tokens": config.get("maxTokens"), "tool_choice": (body.get("toolConfig") or {}).get("toolChoice")}


def _pick(mapping: dict[str, Any], *names: str) -> Any:
    """Gemini's JSON takes both spellings (snake_case and camelCase)."""
    return next((mapping[name] for name in names if name in mapping), None)


def _from_gemini(body: dict[str, Any]) -> dict[str, Any]:
    messages: list[dict[str, Any]] = []
    system = _pick(body, "system_instruction", "systemInstruction")
    if system:
        messages.append({"role": "system", "content": _text(system["parts"])})
    ids = itertools.count()
    for content in body["contents"]:
        parts = content["parts"]
        if content["role"] == "model":
            calls = []
            for part in parts:
                call = _pick(part, "function_call", "functionCall")
                if call is not None:
                    calls.append(_call(f"gemini_{next(ids)}", call["name"], call.get("args") or {}))
            said = "".join(p["text"] for p in parts if "text" in p)
            messages.append({"role": "assistant", "content": said or None, **({"tool_calls": calls} if calls else {})})
            continue
        answered = False
        for part in parts:
            response = _pick(part, "function_response", "functionResponse")
            if response is not None:
                answered = True
                value = response.get("response")
                text = value.get("content") if isinstance(value, dict) and "content" in value else json.dumps(value)
                messages.append({"role": "tool", "tool_call_id": "", "name": response["name"], "content": text})
        said = "".join(p["text"] for p in parts if "text" in p)
        if said or not answered:
            messages.append({"role": "user", "content": said})
    tools = []
    for group in body.get("tools") or []:
        for declaration in _pick(group, "function_declarations", "functionDeclarations") or []:
            tools.append(_tool(declaration["name"], declaration.get("description", ""), declaration.get("parameters")))
    config = _pick(body, "generationConfig", "generation_config") or {}
    return {"messages": messages, "tools": tools, "max_tokens": _pick(config, "max_output_tokens", "maxOutputTokens"), "tool_choice": body.get("tool_config")}


# -- answers, written as each provider writes them -----------------------------------------


class ProviderServer(LoopbackServer):
    """A fake of one provider route on 127.0.0.1, answering with `handler` (a context manager).

    ``requests`` keeps each request body as sent (what litellm made of the harness's request);
    ``seen`` keeps it as the handler got it (OpenAI-shaped).
    """

    def __init__(
        self,
        route: Route,
        handler: Callable[[dict[str, Any]], Reply],
        *,
        tool_flags: bool = True,
        single_call_turns: bool = False,
        context_window: int | None = None,
        repeat_error: tuple[int, str] | None = None,
        model: str | None = None,
        tokenizer_ratio: float | None = None,
    ) -> None:
        if route not in ROUTES:
            raise ValueError(f"unknown route {route!r} (one of {', '.join(ROUTES)})")
        self.route = route
        self._model = model  # another litellm model string of the route (e.g. a Llama 3.1 on vLLM)
        self.handler = handler
        self.tool_flags = tool_flags
        self.single_call_turns = single_call_turns
        self.context_window = context_window
        self.repeat_error = repeat_error  # answer every request with this (status, message), as a broken template does
        # vLLM and llama.cpp count a prompt with the model's own tokenizer (/tokenize): this many
        # times the fakes' count (a quarter of the characters); None: no such endpoint.
        self.tokenizer_ratio = tokenizer_ratio
        self.requests: list[dict[str, Any]] = []
        self.seen: list[dict[str, Any]] = []
        self._ids = itertools.count()
        self._lock = threading.Lock()
        self._credentials: Path | None = None
        super().__init__(self._make_handler())

    @property
    def model(self) -> str:
        """The litellm model string of this route."""
        return self._model or _MODELS[self.route]

    @property
    def url(self) -> str:
        """What to pass as ``--api-base``."""
        return f"{self.base_url}/v1" if self.route in ("openai", "mistral", "vllm", "llamacpp") else self.base_url

    @property
    def environment(self) -> dict[str, str]:
        """Fake credentials the route's client needs before it sends anything (none is checked)."""
        env = {
            "anthropic": {"ANTHROPIC_API_KEY": "sk-ant-fake"},
            "bedrock": {"AWS_ACCESS_KEY_ID": "AKIAFAKEFAKEFAKE", "AWS_SECRET_ACCESS_KEY": "fake", "AWS_REGION_NAME": "us-east-1"},
            "gemini": {"GEMINI_API_KEY": "fake"},
            "mistral": {"MISTRAL_API_KEY": "fake"},
        }.get(self.route, {})
        if self.route in ("vertex", "vertex-claude"):
            env = {
                "GOOGLE_APPLICATION_CREDENTIALS": str(self._service_account()),
                "VERTEXAI_PROJECT": "tau-fake",
                "VERTEXAI_LOCATION": "us-east5" if self.route == "vertex-claude" else "us-central1",
            }
        return env

    def _service_account(self) -> Path:
        """A service account whose token endpoint is this server (google-auth signs a JWT with its key)."""
        if self._credentials is None:
            from cryptography.hazmat.primitives import serialization
            from cryptography.hazmat.primitives.asymmetric import rsa

            key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
            account = {
                "type": "service_account", "project_id": "tau-fake", "private_key_id": "fake", "private_key": pem.decode(),
                "client_email": "tau@tau-fake.iam.gserviceaccount.com", "client_id": "1", "token_uri": f"{self.base_url}/token",
            }
            folder = Path(tempfile.mkdtemp(prefix="tau-vertex-"))
            self._credentials = folder / "service-account.json"
            self._credentials.write_text(json.dumps(account))
        return self._credentials

    # -- the exchange ------------------------------------------------------------------
    def _read(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """The request as the handler gets it, after the provider's own refusals."""
        if self.route == "anthropic" or self.route == "vertex-claude":
            request = _from_anthropic(body)
        elif self.route == "bedrock":
            request = _from_bedrock(body)
        elif self.route in ("gemini", "vertex"):
            request = _from_gemini(body)
        else:
            request = {k: v for k, v in body.items() if k != "model"}
            request.setdefault("tools", [])
        request["model"] = unquote(path)
        tools = request.get("tools") or []
        if self.route == "vllm" and tools and not self.tool_flags and request.get("tool_choice") in (None, "auto"):
            raise _Refused(400, {"object": "error", "type": "BadRequestError", "message": _VLLM_TOOL_CHOICE, "code": 400})
        if self.route == "mistral":
            for message in request["messages"]:
                for call in message.get("tool_calls") or []:
                    if not re.fullmatch(r"[A-Za-z0-9]{9}", call["id"]):
                        text = f"Tool call id was {call['id']} but must be a-z, A-Z, 0-9, with a length of 9."
                        raise _Refused(422, {"object": "error", "message": text, "type": "invalid_request_message_error"})
        if self.single_call_turns and any(len(m.get("tool_calls") or []) > 1 for m in request["messages"]):
            raise _Refused(400, {"object": "error", "type": "BadRequestError", "message": _LLAMA3_SINGLE_CALL, "code": 400})
        if self.route == "llamacpp" and tools and request.get("tool_choice") is None:
            request["tools"] = []  # a function-calling chat format leaves the tools out of the prompt
        used = prompt_tokens(request)
        if self.context_window is not None and used > self.context_window:
            raise _Refused(400, self._overflow(used))
        return request

    def _overflow(self, used: int) -> dict[str, Any]:
        window = self.context_window
        if self.route in ("anthropic", "vertex-claude"):
            return {"type": "error", "error": {"type": "invalid_request_error", "message": f"prompt is too long: {used} tokens > {window} maximum"}}
        if self.route == "bedrock":
            return {"message": f"Input is too long for requested model. ({used} tokens > {window})"}
        if self.route in ("gemini", "vertex"):
            return {"error": {"code": 400, "status": "INVALID_ARGUMENT", "message": f"The input token count ({used}) exceeds the maximum number of tokens allowed ({window})."}}
        if self.route == "llamacpp":
            return {"error": {"message": f"Requested tokens ({used}) exceed context window of {window}", "type": "internal_server_error"}}
        return {"object": "error", "type": "BadRequestError", "code": 400, "message": (
            f"This model's maximum context length is {window} tokens. However, your request has {used} input tokens. "
            "Please reduce the length of the input messages."
        )}

    def _answer(self, request: dict[str, Any], reply: Reply) -> dict[str, Any]:
        content = reply.content or ""
        completion_tokens = reply.completion_tokens
        calls = list(reply.tool_calls)
        limit = request.get("max_tokens") or request.get("max_completion_tokens")
        cut = isinstance(limit, int) and completion_tokens > limit
        if cut and isinstance(limit, int):
            content, calls, completion_tokens = content[: max(1, limit * 4)], [], limit
        used = prompt_tokens(request)
        arguments = [c.arguments if isinstance(c.arguments, dict) else json.loads(c.arguments) for c in calls]
        number = next(self._ids)
        if self.route in ("anthropic", "vertex-claude"):
            blocks: list[dict[str, Any]] = [{"type": "text", "text": content}] if content else []
            blocks += [{"type": "tool_use", "id": f"toolu_{number}_{i}", "name": c.name, "input": a} for i, (c, a) in enumerate(zip(calls, arguments, strict=True))]
            return {
                "id": f"msg_{number}", "type": "message", "role": "assistant", "model": request["model"], "content": blocks,
                "stop_reason": "max_tokens" if cut else ("tool_use" if calls else "end_turn"), "stop_sequence": None,
                "usage": {"input_tokens": used, "output_tokens": completion_tokens},
            }
        if self.route == "bedrock":
            parts: list[dict[str, Any]] = [{"text": content}] if content else []
            parts += [{"toolUse": {"toolUseId": f"tooluse_{number}_{i}", "name": c.name, "input": a}} for i, (c, a) in enumerate(zip(calls, arguments, strict=True))]
            return {
                "output": {"message": {"role": "assistant", "content": parts}},
                "stopReason": "max_tokens" if cut else ("tool_use" if calls else "end_turn"),
                "usage": {"inputTokens": used, "outputTokens": completion_tokens, "totalTokens": used + completion_tokens},
                "metrics": {"latencyMs": 1},
            }
        if self.route in ("gemini", "vertex"):
            gemini_parts: list[dict[str, Any]] = [{"text": content}] if content else []
            gemini_parts += [{"functionCall": {"name": c.name, "args": a}} for c, a in zip(calls, arguments, strict=True)]
            return {
                "candidates": [{"content": {"role": "model", "parts": gemini_parts}, "finishReason": "MAX_TOKENS" if cut else "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": used, "candidatesTokenCount": completion_tokens, "totalTokenCount": used + completion_tokens},
                "modelVersion": request["model"],
            }
        message: dict[str, Any] = {"role": "assistant", "content": content or None}
        if calls:
            message["tool_calls"] = [
                _call(self._call_id(number, i), c.name, a) for i, (c, a) in enumerate(zip(calls, arguments, strict=True))
            ]
        if reply.reasoning_content:
            message["reasoning_content"] = reply.reasoning_content
        finish = "length" if cut else ("tool_calls" if calls else "stop")
        return {
            "id": f"chatcmpl-{number}", "object": "chat.completion", "created": 0, "model": request["model"],
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": used, "completion_tokens": completion_tokens, "total_tokens": used + completion_tokens},
        }

    def _call_id(self, number: int, index: int) -> str:
        if self.route == "mistral":
            return f"{number:05d}{index:04d}"[-9:].replace("0", "a")  # 9 letters or digits
        return f"call_{number}_{index}"

    def _models(self) -> dict[str, Any]:
        """``/v1/models``: vLLM says its window (max_model_len), llama.cpp its training context."""
        name = self.model.split("/", 1)[1]
        entry: dict[str, Any] = {"id": name, "object": "model", "owned_by": self.route}
        if self.route == "vllm" and self.context_window:
            entry["max_model_len"] = self.context_window
        if self.route == "llamacpp" and self.context_window:
            entry["meta"] = {"n_ctx_train": self.context_window}
        return {"object": "list", "data": [entry]}

    def _make_handler(self) -> type[JsonHandler]:
        server = self

        class RequestHandler(JsonHandler):
            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, json.dumps(server._models()).encode())
                elif self.path.rstrip("/").endswith("/props") and server.route == "llamacpp" and server.context_window:
                    self._send(200, json.dumps({"default_generation_settings": {"n_ctx": server.context_window}}).encode())
                else:
                    self._send(404, b'{"error": {"message": "not found"}}')

            def do_POST(self) -> None:
                raw = self.read_body()
                if "tokenize" in self.path:  # vLLM's /tokenize, llama-cpp-python's /extras/tokenize/count
                    served = {"vllm": "/tokenize", "llamacpp": "/extras/tokenize/count"}.get(server.route)
                    if server.tokenizer_ratio is None or self.path != served:
                        self._send(404, b'{"error": {"message": "not found"}}')
                        return
                    sent = json.loads(raw or b"{}")
                    text = sent.get("prompt") or sent.get("input") or ""
                    self._send(200, json.dumps({"count": int(len(text) / 4 * server.tokenizer_ratio)}).encode())
                    return
                if self.path.startswith("/token"):  # Vertex: google-auth trades its signed JWT for a token
                    self._send(200, b'{"access_token": "ya29.fake", "expires_in": 3600, "token_type": "Bearer"}')
                    return
                body = json.loads(raw or b"{}")
                with server._lock:
                    server.requests.append(body)
                if server.repeat_error is not None:
                    status, text = server.repeat_error
                    self._send(status, json.dumps({"error": {"message": text, "type": "server_error", "code": status}}).encode())
                    return
                try:
                    request = server._read(_model_of(server.route, self.path, body), body)
                except _Refused as refused:
                    self._send(refused.status, json.dumps(refused.payload).encode())
                    return
                with server._lock:
                    server.seen.append(request)
                try:
                    reply = server.handler(request)
                except Exception as exc:  # a broken handler is a 500 the test can see
                    self._send(500, json.dumps({"error": {"message": f"handler failed: {exc!r}"}}).encode())
                    return
                self._send(200, json.dumps(server._answer(request, reply)).encode())

        return RequestHandler


def _model_of(route: Route, path: str, body: dict[str, Any]) -> str:
    """The model a request names: in the body (OpenAI-shaped, Anthropic) or in the path (Bedrock, Gemini, Vertex)."""
    if "model" in body:
        return str(body["model"])
    match = re.search(r"/models?/([^/:]+(?::[^/:]+)?)(?::|/)[a-zA-Z]+$", path) or re.search(r"/models?/([^/]+?)(?::\w+|/\w+)$", path)
    return match.group(1) if match else route
