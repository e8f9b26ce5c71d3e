"""The answer stage: sources → a cited answer.

* ``answerer``   — ``Answerer.ask`` / ``Answerer.stream``: rewrite, retrieve, generate or extract, cite
* ``llm``        — ``ChatLLM`` over any OpenAI-compatible endpoint (retries, fallbacks, images)
* ``prompts``    — every prompt text and ``PROMPT_VERSION``
* ``citations``  — parsing and checking ``[N]`` / ``[N, p.X]``
* ``extractive`` — answers quoted from the sources when no LLM is configured (``text``: its helpers;
  ``cues``, ``fields``, ``render``: its answer-type cues, form fields and quoting)
* ``query``      — follow-up rewriting, HyDE, multi-query, short-query expansion
* ``cache``      — ``SemanticCache`` of answers in its own vector collection
* ``enrich``     — index-time chunk summaries and figure descriptions

Nothing is imported here, so ``import pagelens.answer`` stays cheap.
"""
