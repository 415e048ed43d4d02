package deckhand

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

var logLevels = map[string]int{"debug": 0, "info": 1, "warn": 2, "error": 3, "silent": 100}

// checkLogging refuses a level or format the client does not know (nil: the defaults).
func checkLogging(o *LoggingOptions) error {
	if o == nil {
		return nil
	}
	if _, ok := logLevels[o.Level]; !ok && o.Level != "" {
		return newError(CodeInvalidArgument, "the logging level must be debug, info, warn, error or silent, got '%s'", o.Level)
	}
	if o.Format != "" && o.Format != "text" && o.Format != "json" {
		return newError(CodeInvalidArgument, "the logging format must be 'text' or 'json', got '%s'", o.Format)
	}
	return nil
}

// log reports one of the engine's log lines as CreateOptions.Logging says: to Func, else written
// as text or JSON (default: warnings and errors, as text on stderr, like the Node client).
func (c *Client) log(level, message string, rawData json.RawMessage) {
	lg := LoggingOptions{Level: "warn", Writer: os.Stderr}
	if o := c.o.Logging; o != nil {
		lg = LoggingOptions{Level: cmp.Or(o.Level, lg.Level), Format: o.Format, Writer: cmp.Or[io.Writer](o.Writer, lg.Writer), Func: o.Func}
	}
	if logLevels[level] < logLevels[lg.Level] {
		return
	}
	var data map[string]any
	if json.Unmarshal(rawData, &data) != nil || len(data) == 0 {
		rawData = nil // absent, empty or not an object
	}
	if lg.Func != nil {
		// A failing log function must not fail the operation that logged.
		defer func() { _ = recover() }()
		lg.Func(level, message, data)
		return
	}
	ts := time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	line := fmt.Sprintf("[deckhand] %s %s %s", ts, strings.ToUpper(level), message)
	if lg.Format == "json" {
		b, _ := marshalJS(object{{"level", level}, {"message", message}, {"timestamp", ts}}.with("data", json.RawMessage(rawData)))
		line = string(b)
	}
	c.logMu.Lock()
	defer c.logMu.Unlock()
	fmt.Fprintln(lg.Writer, line)
}
