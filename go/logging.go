package deckhand

import (
	"encoding/json"
	"fmt"
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
	lg := c.o.Logging
	if lg == nil {
		lg = &LoggingOptions{}
	}
	min := lg.Level
	if min == "" {
		min = "warn"
	}
	if logLevels[level] < logLevels[min] {
		return
	}
	var data map[string]any
	_ = json.Unmarshal(rawData, &data) // absent or not an object: nil
	if lg.Func != nil {
		func() {
			// A failing log function must not fail the operation that logged.
			defer func() { _ = recover() }()
			lg.Func(level, message, data)
		}()
		return
	}
	w := lg.Writer
	if w == nil {
		w = os.Stderr
	}
	ts := time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	var line string
	if lg.Format == "json" {
		o := object{{"level", level}, {"message", message}, {"timestamp", ts}}
		if len(data) > 0 {
			o = append(o, kv{"data", json.RawMessage(rawData)})
		}
		b, _ := marshalJS(o)
		line = string(b)
	} else {
		line = fmt.Sprintf("[deckhand] %s %s %s", ts, strings.ToUpper(level), message)
	}
	c.logMu.Lock()
	defer c.logMu.Unlock()
	fmt.Fprintln(w, line)
}
