"""What each provider route accepts, and what its refusals mean: shared by both model clients.

A request is built the same way whatever the client: parameters the provider does not
support are left out (litellm says which), the tools are the client's own copy (litellm
rewrites the schemas it is handed for Gemini, Vertex and some vLLM models, which would change
the domain's cached schemas and with them every later request and --record key), tools go
with ``tool_choice: auto`` (llama-cpp-python's function-calling formats drop tools sent
without it), and a Llama 3.x history never holds two calls in one assistant turn (its chat
template refuses them). An error that a rerun would repeat (an unsupported parameter, a vLLM
server started without its tool flags, a template that refuses the history) stops the run at
once, with the fix in the message.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import re
import urllib.request
from typing import Any

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "REPEATS_BEFORE_FATAL",
    "SMALLEST_CHECKED_PROMPT",
    "chat_messages",
    "context_overflow",
    "deterministic_error",
    "dropped_prompt",
    "litellm_request",
    "llama3_family",
    "prompt_characters",
    "repeated_server_error",
    "served_context_window",
    "served_prompt_tokens",
    "single_call_turns",
    "tool_parser_hint",
    "tools_copy",
]

# Enough for any answer of the built-in strategies (a reply, a few tool calls, a thought);
# a model that rambles past it is cut and the conversation ends as `max_tokens`.
DEFAULT_MAX_TOKENS = 4096

_OVERFLOW = re.compile(
    r"maximum context length|context[_ ]length[_ ]exceeded|exceeds? (?:the )?context window|context window of \d+"
    r"|prompt is too long|input is too long|input token count .* exceeds|too many tokens|reduce the length of the (?:input|messages)",
    re.IGNORECASE,
)


def context_overflow(text: str) -> bool:
    """Whether a provider's error says the prompt does not fit the model's context window."""
    return _OVERFLOW.search(text) is not None


def tools_copy(tools: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """A deep copy of the tools for one request: what the client library does to it never
    reaches the domain's cached schemas (nor the --record keys computed from them)."""
    return copy.deepcopy(tools) if tools else None


def llama3_family(model: str) -> bool:
    return re.search(r"llama[-_ ]?3", model, re.IGNORECASE) is not None


def single_call_turns(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The history with each assistant turn of N tool calls sent as N consecutive turns of one
    call, each followed by its result (Llama 3.x templates refuse two calls in one turn)."""
    out: list[dict[str, Any]] = []
    index = 0
    while index < len(messages):
        message = messages[index]
        calls = message.get("tool_calls") or []
        if message.get("role") != "assistant" or len(calls) < 2:
            out.append(message)
            index += 1
            continue
        results: dict[str, dict[str, Any]] = {}
        following = index + 1
        while following < len(messages) and messages[following].get("role") == "tool":
            results[str(messages[following].get("tool_call_id"))] = messages[following]
            following += 1
        for number, call in enumerate(calls):
            out.append({**message, "content": message.get("content") if number == 0 else None, "tool_calls": [call]})
            result = results.pop(str(call.get("id")), None)
            if result is not None:
                out.append(result)
        out.extend(results.values())  # results that named no call of the turn stay, in order
        index = following
    return out


def tool_parser_hint(model: str) -> str:
    """vLLM's tool-call parser for a model family, as `vllm serve` flags."""
    name = model.lower()
    if llama3_family(name):
        return "--enable-auto-tool-choice --tool-call-parser llama3_json --chat-template examples/tool_chat_template_llama3.1_json.jinja"
    if "mistral" in name or "mixtral" in name:
        return "--enable-auto-tool-choice --tool-call-parser mistral"
    if "hermes" in name or "qwen" in name:
        return "--enable-auto-tool-choice --tool-call-parser hermes"
    if "granite" in name:
        return "--enable-auto-tool-choice --tool-call-parser granite"
    if "deepseek" in name:
        return "--enable-auto-tool-choice --tool-call-parser deepseek_v3"
    return "--enable-auto-tool-choice --tool-call-parser <the parser of the model family: hermes, llama3_json, mistral, ...>"


def deterministic_error(status: int | None, text: str, model: str, where: str) -> str | None:
    """A one-line reason, with its fix, when a refused request would be refused again on any
    rerun; None for anything else. ``text`` is the provider's (or the client's) message."""
    prefix = f"cannot use the model: {model!r} at {where}: "
    lowered = text.lower()
    if "unsupportedparamserror" in lowered or "does not support parameters" in lowered:
        return prefix + f"the provider refuses a parameter of the request ({text.strip()[:240]}); set LITELLM_DROP_PARAMS=true"
    if "enable-auto-tool-choice" in lowered or "tool choice requires" in lowered:
        return prefix + (
            f"the vLLM server was started without tool calling: restart it with `vllm serve ... {tool_parser_hint(model)}`, "
            "or run a text strategy: --agent-strategy react"
        )
    if "only supports single tool-calls" in lowered:
        return prefix + "the chat template refuses two tool calls in one turn; name the model so its family shows (llama-3...), or serve it with another template"
    if status == 404 or "model_not_found" in lowered or "does not exist" in lowered:
        return prefix + "no such model (404): check the model name the server serves (GET /v1/models)"
    return None


# The same server error on every attempt of one call, through its whole retry budget (and at
# least this many times), is the server's answer to that request (a chat template that refuses
# the history), not a passing fault: the run stops instead of failing item after item the same
# way. Fewer repeats are not enough: a flaky server can give three identical 500s in a row.
REPEATS_BEFORE_FATAL = 3
_TRANSIENT = ("overload", "unavailable", "timeout", "timed out", "try again", "capacity", "rate limit", "busy", "connection")


def repeated_server_error(status: int | None, texts: list[str], model: str, where: str, attempts: int = REPEATS_BEFORE_FATAL) -> str | None:
    """The reason to stop when a 500 came back with the same message on the last `attempts`
    attempts of one call (never for overload-like messages, which do pass)."""
    needed = max(REPEATS_BEFORE_FATAL, attempts)
    if status != 500 or len(texts) < needed:
        return None
    last = texts[-needed:]
    if len(set(last)) != 1 or any(word in last[0].lower() for word in _TRANSIENT):
        return None
    hint = ""
    if "template" in last[0].lower() or "roles must alternate" in last[0].lower() or "raise_exception" in last[0].lower():
        hint = "; the server's chat template refuses this conversation (llama-cpp-python: serve with --chat_format chatml-function-calling)"
    return (
        f"cannot use the model: {model!r} at {where}: the server answers the same error every time "
        f"({needed} in a row): {last[0].strip()[:300]}{hint}"
    )


# Tokenizers in use spend 3 to 5 characters of a JSON-and-English prompt per token; a server
# that counts far fewer tokens than that left part of the request out of the prompt.
_MOST_CHARACTERS_PER_TOKEN = 7.0
SMALLEST_CHECKED_PROMPT = 4000  # characters: below this a template's own tokens blur the ratio


def prompt_characters(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> int:
    return len(json.dumps(messages)) + len(json.dumps(tools or []))


def dropped_prompt(characters: int, prompt_tokens: int, model: str, where: str) -> str | None:
    """The reason to stop when the server counted too few prompt tokens for the request's
    characters: its chat format dropped the tool schemas or the system prompt (the policy),
    and the model would be scored on a task it never saw. None when the count is plausible
    or not reported."""
    if prompt_tokens <= 0 or characters < SMALLEST_CHECKED_PROMPT or characters / prompt_tokens <= _MOST_CHARACTERS_PER_TOKEN:
        return None
    return (
        f"cannot use the model: {model!r} at {where}: the server counted {prompt_tokens:,} prompt tokens for a request "
        f"of {characters:,} characters (about {characters // 4:,} tokens): its chat format left the tool schemas or "
        "the system prompt with the policy out of the prompt. llama-cpp-python: serve with a function-calling "
        "chat format (--chat_format chatml-function-calling); or run --agent-strategy react, which states the "
        "tools in the prompt"
    )


def _server_root(api_base: str) -> str:
    """The server's own address: the API base without its `/v1`."""
    base = api_base.rstrip("/")
    return base[: -len("/v1")] if base.endswith("/v1") else base


def served_context_window(api_base: str, timeout: float = 5.0) -> int | None:
    """The context window an OpenAI-compatible server says it serves: vLLM's `max_model_len`
    in /v1/models, llama.cpp's `n_ctx` in /props (or its model's `n_ctx_train`); None when
    it says nothing or does not answer."""
    base = api_base.rstrip("/")
    root = _server_root(api_base)
    for url in (f"{root}/props", f"{root}/v1/models" if root != base else f"{base}/models"):
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                document = json.loads(response.read() or b"{}")
        except (OSError, ValueError):
            continue
        settings = document.get("default_generation_settings") if isinstance(document, dict) else None
        if isinstance(settings, dict) and isinstance(settings.get("n_ctx"), int):
            return int(settings["n_ctx"])
        for entry in document.get("data") or [] if isinstance(document, dict) else []:
            if isinstance(entry.get("max_model_len"), int):
                return int(entry["max_model_len"])
            meta = entry.get("meta") or {}
            if isinstance(meta.get("n_ctx_train"), int):
                return int(meta["n_ctx_train"])
    return None


def served_prompt_tokens(api_base: str, model: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None,
                         timeout: float = 5.0) -> int | None:
    """The prompt's tokens as the server's own tokenizer counts them (a model's tokenizer may
    count a third more than litellm's stand-in): vLLM's and llama.cpp's `/tokenize`,
    llama-cpp-python's `/extras/tokenize/count`; None when the server offers none. The text is
    the messages' contents and the tool schemas; the chat template adds a few tokens more."""
    root = _server_root(api_base)
    name = model.split("/", 1)[1] if "/" in model else model
    text = "\n".join(str(message.get("content") or "") for message in messages)
    if tools:
        text += "\n" + json.dumps(tools)
    attempts = (
        (f"{root}/tokenize", {"model": name, "prompt": text, "content": text}),  # vLLM reads prompt, llama.cpp content
        (f"{root}/extras/tokenize/count", {"input": text}),  # llama-cpp-python
    )
    for url, body in attempts:
        request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                document = json.loads(response.read() or b"{}")
        except (OSError, ValueError):
            continue
        if isinstance(document, dict) and isinstance(document.get("count"), int):
            return int(document["count"])
        if isinstance(document, dict) and isinstance(document.get("tokens"), list):
            return len(document["tokens"])
    return None


def chat_messages(model: str, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The history as this model's server takes it (Llama 3.x: one call per assistant turn)."""
    return single_call_turns(messages) if llama3_family(model) else messages


def _supported(litellm: Any, model: str, provider: str | None) -> frozenset[str] | None:
    try:
        supported = litellm.get_supported_openai_params(model=model, custom_llm_provider=provider)
    except Exception:  # an unmapped model: litellm cannot say, so send what every route takes
        return None
    return frozenset(supported) if supported else None


@functools.lru_cache(maxsize=64)
def _route(litellm: Any, model: str, provider: str | None, api_base: str | None) -> tuple[str | None, frozenset[str] | None]:
    """The provider and its supported parameters, asked of litellm once per model (not per call)."""
    with contextlib.suppress(Exception):  # a name litellm cannot place: the given provider
        _, provider, _, _ = litellm.get_llm_provider(model, custom_llm_provider=provider, api_base=api_base)
    return provider, _supported(litellm, model, provider)


def litellm_request(litellm: Any, kwargs: dict[str, Any], *, max_tokens: int | None) -> dict[str, Any]:
    """litellm's keyword arguments made safe for the route: what the provider does not support
    left out, the tools a copy of their own with ``tool_choice: auto``, Llama 3.x turns split,
    and the placeholder key only for OpenAI-compatible servers."""
    model = str(kwargs["model"])
    provider, supported = _route(litellm, model, kwargs.get("custom_llm_provider"), kwargs.get("api_base"))

    def allowed(name: str) -> bool:
        return supported is None or name in supported

    out = dict(kwargs)
    if "seed" in out and not allowed("seed"):
        del out["seed"]  # Anthropic, Bedrock, Vertex's Claude refuse it outright
    if max_tokens is not None and allowed("max_tokens"):
        out["max_tokens"] = max_tokens
    if out.get("tools"):
        out["tools"] = tools_copy(out["tools"])
        if allowed("tool_choice"):
            out["tool_choice"] = "auto"
    out["messages"] = chat_messages(model, out["messages"])
    if out.get("api_key") == "no-key" and provider not in (None, "openai", "hosted_vllm", "text-completion-openai", "openai_like", "llamafile", "lm_studio"):
        del out["api_key"]  # a provider's own client reads its own key (Anthropic, Bedrock, Vertex...)
    return out
