package deckhand

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func attrOf(s tracetest.SpanStub, key string) (attribute.Value, bool) {
	for _, kv := range s.Attributes {
		if string(kv.Key) == key {
			return kv.Value, true
		}
	}
	return attribute.Value{}, false
}

// Spans go to the given provider: the operation under the caller's span, a model_call child with
// the worker's times and usage, and errors recorded on the span.
func TestOperationsAreSpansWithModelCallChildren(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	gen := func(ctx context.Context, req *ModelRequest) (*ModelReply, error) {
		time.Sleep(30 * time.Millisecond)
		return &ModelReply{Object: clickAnswer{Found: true, ElementID: elementID(t, req, "button", "Multi"), Method: "click", Arguments: []string{},
			Description: "Multi"},
			Usage: &ReplyUsage{InputTokens: 77, OutputTokens: 7}}, nil
	}
	c := newClient(t, CreateOptions{Generate: gen, Telemetry: &TelemetryOptions{TracerProvider: tp, TracerName: "test"}})
	open(t, c, "/form.html")
	ctx, root := tp.Tracer("caller").Start(context.Background(), "caller")
	if _, err := c.Act(ctx, ActInstruction("click the Multi button"), nil); err != nil {
		t.Fatal(err)
	}
	root.End()
	if _, err := c.Act(context.Background(), ObservedAction(Action{Selector: "//div[", Description: "broken"}), nil); err == nil {
		t.Fatal("a broken selector was accepted")
	}
	// The model-call line may be read just after the answer.
	var act, call, failed *tracetest.SpanStub
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && (act == nil || call == nil || failed == nil) {
		act, call, failed = nil, nil, nil
		spans := exp.GetSpans()
		for i := range spans {
			s := &spans[i]
			switch s.Name {
			case "deckhand.act":
				if s.Status.Code == codes.Error {
					failed = s
				} else {
					act = s
				}
			case "deckhand.model_call":
				call = s
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if act == nil || call == nil || failed == nil {
		t.Fatalf("spans: %+v", exp.GetSpans())
	}
	if act.Parent.SpanID() != root.SpanContext().SpanID() || act.InstrumentationScope.Name != "test" {
		t.Fatalf("the act span is not under the caller's span: %+v", act)
	}
	if v, _ := attrOf(*act, "gen_ai.usage.input_tokens"); v.AsInt64() != 77 {
		t.Fatalf("act usage %v", v)
	}
	if v, _ := attrOf(*act, "deckhand.model"); v.AsString() == "" {
		t.Fatal("no deckhand.model on the act span")
	}
	if call.Parent.SpanID() != act.SpanContext.SpanID() {
		t.Fatal("the model_call span is not a child of the act span")
	}
	if v, _ := attrOf(*call, "gen_ai.usage.output_tokens"); v.AsInt64() != 7 {
		t.Fatalf("model_call usage %v", v)
	}
	// The worker's measured times: the callback slept 30 ms, inside the act.
	if d := call.EndTime.Sub(call.StartTime); d < 25*time.Millisecond || call.StartTime.Before(act.StartTime.Add(-time.Second)) ||
		call.EndTime.After(act.EndTime.Add(time.Second)) {
		t.Fatalf("model_call times %s..%s, act %s..%s", call.StartTime, call.EndTime, act.StartTime, act.EndTime)
	}
	if failed.Status.Description == "" || len(failed.Events) == 0 {
		t.Fatalf("the failed act's error was not recorded: %+v", failed)
	}
}
