package deckhand

import (
	"context"
	"encoding/json"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

const spanGrace = 5 * time.Second

func tracerFor(o *TelemetryOptions) trace.Tracer {
	var tp trace.TracerProvider
	name := "deckhand"
	if o != nil {
		tp = o.TracerProvider
		if o.TracerName != "" {
			name = o.TracerName
		}
	}
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	return tp.Tracer(name)
}

// startOperationSpan opens the span of one operation under the caller's context and registers
// it under opID for the worker's model-call log lines.
func (c *Client) startOperationSpan(ctx context.Context, op, opID string, model any) trace.Span {
	attrs := []attribute.KeyValue{attribute.String("deckhand.operation", op)}
	if name := modelLabel(model); name != "" {
		attrs = append(attrs, attribute.String("deckhand.model", name))
	}
	_, span := c.tracer.Start(ctx, "deckhand."+op, trace.WithAttributes(attrs...))
	c.mu.Lock()
	c.spans[opID] = span
	c.mu.Unlock()
	return span
}

// endOperationSpan records how the operation ended: its usage, or its error.
func (c *Client) endOperationSpan(span trace.Span, opID string, answer any, err error) {
	// The worker's log lines are handled on their own goroutines, so a model-call line sent
	// before the answer may be read after it: the ended span stays a parent for a while.
	time.AfterFunc(spanGrace, func() {
		c.mu.Lock()
		delete(c.spans, opID)
		c.mu.Unlock()
	})
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	} else if m := metadataOf(answer); m != nil {
		span.SetAttributes(attribute.Int("gen_ai.usage.input_tokens", int(m.Usage.InputTokens)),
			attribute.Int("gen_ai.usage.output_tokens", int(m.Usage.OutputTokens)))
	}
	span.End()
}

// modelCallSpan is the worker's model-call log line (src/protocol/log-spans.ts).
type modelCallSpan struct {
	Span         string  `json:"span"`
	OpID         string  `json:"opId"`
	Model        string  `json:"model"`
	StartedAt    float64 `json:"startedAt"`
	EndedAt      float64 `json:"endedAt"`
	InputTokens  int     `json:"inputTokens"`
	OutputTokens int     `json:"outputTokens"`
}

// recordModelCall turns a model-call log line into a child span of its operation, with the
// times the worker measured.
func (c *Client) recordModelCall(data json.RawMessage) {
	var d modelCallSpan
	if len(data) == 0 || json.Unmarshal(data, &d) != nil || d.Span != "model-call" || d.OpID == "" {
		return
	}
	c.mu.Lock()
	parent, ok := c.spans[d.OpID]
	c.mu.Unlock()
	if !ok {
		return
	}
	ms := func(v float64) time.Time { return time.UnixMilli(int64(v)) }
	_, span := c.tracer.Start(trace.ContextWithSpan(context.Background(), parent), "deckhand.model_call",
		trace.WithTimestamp(ms(d.StartedAt)),
		trace.WithAttributes(attribute.String("deckhand.model", d.Model), attribute.Int("gen_ai.usage.input_tokens", d.InputTokens),
			attribute.Int("gen_ai.usage.output_tokens", d.OutputTokens)))
	span.End(trace.WithTimestamp(ms(d.EndedAt)))
}
