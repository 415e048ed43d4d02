"""Deckhand for Python: drive a real Chromium with AI through the Deckhand extension's engine.

    browser = await local_browser.launch(headless=True)
    deckhand = await Deckhand.create(browser=browser)
    await deckhand.act("click the More information link")
"""

from __future__ import annotations

from . import errors, options, types
from ._bridge import PairingInfo
from .browser import Browser, extension_dir, local_browser
from .cache import MemoryStore, RemoteStore, SqliteStore
from ._agent import Agent
from .deckhand import Deckhand
from .errors import DeckhandError
from .flows import Flows, flow_key
from .grid import grid_browser
from .models import LOCAL_MODEL
from .page import BrowserContext, Locator, Page
from .types import ActResult, Action, ExtractResult, Flow, FlowReplayResult, FlowSummary, Metrics, ModelReply, ModelRequest, ObserveResult

__version__ = "0.1.0"

__all__ = [
    "Deckhand", "local_browser", "grid_browser", "Browser", "PairingInfo", "BrowserContext", "Page", "Locator", "Agent", "DeckhandError",
    "errors", "options", "types", "extension_dir", "ActResult", "ObserveResult", "ExtractResult", "Action", "Metrics", "Flow", "FlowSummary",
    "FlowReplayResult", "Flows", "flow_key", "ModelRequest", "ModelReply", "MemoryStore", "SqliteStore", "RemoteStore", "LOCAL_MODEL",
]  # fmt: skip
