"""Conversations kept in memory: a bounded map of id → turns (oldest conversation dropped first)."""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from typing import Any

MAX_TURNS = 50  # per conversation; the prompt uses only the last answer.history_turns of them


class Conversations:
    def __init__(self, max_conversations: int = 200) -> None:
        self.max = max_conversations
        self._items: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def new_id(self) -> str:
        return uuid.uuid4().hex

    def history(self, conversation_id: str | None) -> list[tuple[str, str]]:
        if not conversation_id:
            return []
        with self._lock:
            turns = list(self._items.get(conversation_id, []))
        return [(t["question"], t["answer"]) for t in turns]

    def add(self, conversation_id: str, turn: dict[str, Any]) -> None:
        with self._lock:
            turns = self._items.pop(conversation_id, [])
            turns.append(turn)
            self._items[conversation_id] = turns[-MAX_TURNS:]
            while len(self._items) > self.max:
                self._items.popitem(last=False)

    def get(self, conversation_id: str) -> list[dict[str, Any]] | None:
        with self._lock:
            turns = self._items.get(conversation_id)
            return list(turns) if turns is not None else None

    def delete(self, conversation_id: str) -> bool:
        with self._lock:
            return self._items.pop(conversation_id, None) is not None
