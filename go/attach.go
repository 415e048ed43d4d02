package deckhand

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// PairingInfo is what a person enters in the side panel under "Connect to a local client".
type PairingInfo struct {
	Port  int
	Token string
	// Host is the address the client listens on (always loopback).
	Host string
}

// AttachOptions configure AttachLocalBrowser; nil means a free port, a random token and the
// pairing printed on stderr.
type AttachOptions struct {
	// Port to listen on, 1024 to 65535; 0 (the default) picks a free one, told to OnPairing.
	Port int
	// Token is the one-time pairing token (default: a random one): 6 to 128 letters, digits, - or _.
	Token string
	// Host is a loopback address only; default 127.0.0.1 (the address the extension dials).
	Host string
	// Timeout bounds the wait for the extension to pair (default 2 minutes, at most 10 minutes).
	Timeout time.Duration
	// ReconnectTimeout is how long a call waits for a restarted worker to dial back in (default
	// 45 s: the extension's alarm wakes a stopped worker within 30 s).
	ReconnectTimeout time.Duration
	// OnPairing is told where to pair, once listening (default: one line on stderr for the person).
	OnPairing func(PairingInfo)
	// Name is how the side panel names this client (default: the program's file name and pid).
	Name string
	// AllowURLSchemes are URL schemes this browser may open beyond http:, https:, data: and
	// about:blank, as in ConnectOptions.
	AllowURLSchemes []string
}

var pairingTokenPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{6,128}$`)

func printPairing(p PairingInfo) {
	fmt.Fprintf(os.Stderr, "Deckhand: in Chrome, open the Deckhand side panel, choose \"Connect to a local client\" and enter port %d and token %s\n",
		p.Port, p.Token)
}

// waitOption is a launcher's wait: fallback for 0, else from least to 10 minutes (what names it).
func waitOption(what string, d, fallback, least time.Duration) (time.Duration, error) {
	if d == 0 {
		return fallback, nil
	}
	if d < least || d > maxTimeoutMs*time.Millisecond {
		n := least.String() // "1ms", "1s"
		unit := strings.TrimLeft(n, "0123456789")
		return 0, newError(CodeInvalidArgument, "%s must be from %s %s to 10 minutes, got %s", what, strings.TrimSuffix(n, unit), unit, d)
	}
	return d, nil
}

// AttachLocalBrowser waits for the Deckhand extension in a person's own Chrome to pair with
// this process over the WebSocket bridge (no remote debugging at all), then returns its handle.
// It listens on 127.0.0.1 only; OnPairing (or stderr) gets the port and one-time token the
// person enters in the side panel ("Connect to a local client"). Waiting past Timeout is a
// TIMEOUT *Error naming the port; ctx ending stops the wait with ctx's error. Close says goodbye
// (the panel shows the program left and forgets the pairing) and stops listening.
//
//	b, err := deckhand.AttachLocalBrowser(ctx, &deckhand.AttachOptions{
//		OnPairing: func(p deckhand.PairingInfo) { fmt.Println("port", p.Port, "token", p.Token) },
//	})
func AttachLocalBrowser(ctx context.Context, opts *AttachOptions) (*Browser, error) {
	o := AttachOptions{}
	if opts != nil {
		o = *opts
	}
	allow, err := parseAllowSchemes("AttachOptions.AllowURLSchemes", o.AllowURLSchemes)
	if err != nil {
		return nil, err
	}
	host, err := bridgeHost(o.Host)
	if err != nil {
		return nil, err
	}
	if o.Port != 0 && (o.Port < 1024 || o.Port > 65535) {
		return nil, newError(CodeInvalidArgument, "AttachOptions.Port must be 0 (a free port) or 1024 to 65535, got %d", o.Port)
	}
	token := newPairingToken()
	if o.Token != "" {
		token = strings.TrimSpace(o.Token)
		if !pairingTokenPattern.MatchString(token) {
			return nil, newError(CodeInvalidArgument, "AttachOptions.Token: the pairing token is 6 to 128 letters, digits, - or _")
		}
	}
	timeout, err := waitOption("AttachOptions.Timeout", o.Timeout, attachTimeoutMs*time.Millisecond, time.Millisecond)
	if err != nil {
		return nil, err
	}
	reconnect, err := waitOption("AttachOptions.ReconnectTimeout", o.ReconnectTimeout, attachReconnectTimeoutMs*time.Millisecond, time.Millisecond)
	if err != nil {
		return nil, err
	}
	name := o.Name
	if name == "" {
		name = fmt.Sprintf("%s (pid %d)", filepath.Base(os.Args[0]), os.Getpid())
	}
	extID, err := defaultExtensionID()
	if err != nil {
		return nil, err
	}
	bl, err := listenBridge(bridgeOptions{host: host, token: token, extensionID: extID, reconnectTimeout: reconnect, clientName: name}, o.Port)
	if err != nil {
		return nil, err
	}
	offer := o.OnPairing
	if offer == nil {
		offer = printPairing
	}
	offer(PairingInfo{Port: bl.port, Token: token, Host: host})
	if err := bl.paired(ctx, timeout); err != nil {
		why := asError(err)
		if why.Code == CodeCancelled || why.Code == CodeTimeout && ctx.Err() != nil {
			why = newError(CodeClosed, "AttachLocalBrowser stopped waiting: %v", err)
		}
		bl.close(why)
		return nil, err
	}
	link := &extensionLink{extensionID: extID, peer: bl.peer, bridge: bl, state: stateUp}
	return &Browser{link: link, allowURLSchemes: allow}, nil
}
