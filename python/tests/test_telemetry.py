"""Logging (levels, a callback) and OpenTelemetry spans: one per operation, with a child span
per model call carrying its real times and token counts."""

from __future__ import annotations

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from deckhand import Deckhand

from helpers import click_answer, element_id, failure


async def test_spans_and_log_lines(browser, open_page) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    lines = []

    def generate(request):
        return {"object": click_answer(element_id(request, "button", "Multi"), "Multi"), "usage": {"input_tokens": 77, "output_tokens": 7}}

    d = await Deckhand.create(
        browser=browser,
        model=generate,
        telemetry={"tracer": provider.get_tracer("test")},
        logging={"level": "debug", "callback": lines.append},
    )
    try:
        await open_page("/form.html")
        await d.act("click the Multi button")
        await failure(d.act({"selector": "#gone", "description": "gone"}, timeout=300))
    finally:
        await d.close()
    spans = exporter.get_finished_spans()
    act, call = next(s for s in spans if s.name == "deckhand.act" and s.status.is_ok), next(s for s in spans if s.name == "deckhand.model_call")
    assert call.parent is not None and call.parent.span_id == act.context.span_id
    assert call.attributes["gen_ai.usage.input_tokens"] == 77 and call.attributes["deckhand.model"] == "generate"
    assert act.start_time <= call.start_time <= call.end_time <= act.end_time
    assert act.attributes["gen_ai.usage.input_tokens"] == 77
    failed = [s for s in spans if s.name == "deckhand.act" and not s.status.is_ok]
    assert len(failed) == 1 and "#gone" in failed[0].status.description
    assert any(l["level"] in ("debug", "info") and l["message"] for l in lines)
    assert all(set(l) <= {"level", "message", "timestamp", "data"} for l in lines)
    assert any("failed" in l["message"] for l in lines)  # the client's own debug line for the failure


async def test_bad_telemetry_and_logging_options(browser) -> None:
    for opts in ({"telemetry": {"exporter": 1}}, {"logging": {"format": "xml"}}, {"logging": {"callback": 42}}):
        e = await failure(Deckhand.create(browser=browser, **opts))
        assert e.code == "INVALID_ARGUMENT"
