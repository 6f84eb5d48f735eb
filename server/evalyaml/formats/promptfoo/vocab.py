"""promptfoo 0.123.1's vocabulary, as its code defines it (`src/types/index.ts` zod schemas,
`src/assertions/index.ts` handlers, `src/redteam/graders.ts`, `src/providers/registry.ts`);
extracted from the npm package's dist, listed in `../shared/promptfoo-vocab.json`."""

from __future__ import annotations

TOP_KEYS: tuple[str, ...] = (
    "tags", "description", "providers", "prompts", "tests", "scenarios", "defaultTest",
    "outputPath", "sharing", "nunjucksFilters", "env", "derivedMetrics", "extensions", "metadata",
    "redteam", "writeLatestResults", "tracing", "evaluateOptions", "commandLineOptions",
    "targets",
)

LEGACY_TOP_KEYS: tuple[str, ...] = (
    "plugins", "strategies",
)

TEST_KEYS: tuple[str, ...] = (
    "description", "vars", "provider", "providers", "prompts", "providerOutput", "assert",
    "assertScoringFunction", "options", "threshold", "metadata",
)

# `EvaluateOptionsSchema` (`src/types/index.ts`): what `evaluateOptions` may set.
EVALUATE_OPTION_KEYS: tuple[str, ...] = (
    "cache", "delay", "generateSuggestions", "suggestionsCount", "interactiveProviders",
    "maxConcurrency", "progressCallback", "repeat", "showProgressBar", "timeoutMs",
    "maxEvalTimeMs", "isRedteam", "silent", "filterRange",
)

TEST_OPTION_KEYS: tuple[str, ...] = (
    "prefix", "suffix", "postprocess", "transform", "transformVars", "storeOutputAs",
    "rubricPrompt", "provider", "factuality", "disableVarExpansion", "disableConversationVar",
    "disableDefaultAsserts", "runSerially", "repeat",
)

MUST_HAVE_ONE_OF: tuple[str, ...] = (
    "assert", "vars", "options", "metadata", "provider", "providerOutput", "threshold",
)

SCENARIO_KEYS: tuple[str, ...] = (
    "description", "config", "tests",
)

ASSERTION_KEYS: tuple[str, ...] = (
    "type", "value", "config", "threshold", "weight", "provider", "rubricPrompt", "metric",
    "transform", "contextTransform",
)

ASSERT_SET_KEYS: tuple[str, ...] = (
    "type", "assert", "weight", "metric", "threshold", "config",
)

PROVIDER_OPTION_KEYS: tuple[str, ...] = (
    "id", "label", "config", "prompts", "transform", "delay", "env", "inputs",
)

PROMPT_OBJECT_KEYS: tuple[str, ...] = (
    "id", "label", "raw", "template", "display", "function", "config",
)

BASE_TYPES: tuple[str, ...] = (
    "agent-rubric", "answer-relevance", "bleu", "classifier", "contains", "contains-all",
    "contains-any", "contains-html", "contains-json", "contains-sql", "contains-xml",
    "context-faithfulness", "context-recall", "context-relevance", "conversation-relevance",
    "cost", "equals", "factuality", "finish-reason", "g-eval", "gleu", "guardrails", "icontains",
    "icontains-all", "icontains-any", "is-html", "is-json", "is-refusal", "is-sql",
    "is-valid-function-call", "is-valid-openai-function-call", "is-valid-openai-tools-call",
    "is-xml", "javascript", "latency", "levenshtein", "llm-rubric", "pi", "meteor",
    "model-graded-closedqa", "model-graded-factuality", "moderation", "perplexity",
    "perplexity-score", "python", "regex", "rouge-n", "ruby", "similar", "similar:cosine",
    "similar:dot", "similar:euclidean", "starts-with", "tool-call-f1", "skill-used",
    "trajectory:goal-success", "trajectory:tool-args-match", "trajectory:step-count",
    "trajectory:tool-sequence", "trajectory:tool-used", "trace-error-spans", "trace-span-count",
    "trace-span-duration", "search-rubric", "webhook", "word-count",
)

SPECIAL_TYPES: tuple[str, ...] = (
    "select-best", "human", "max-score",
)

REDTEAM_GRADERS: tuple[str, ...] = (
    "promptfoo:redteam:agentic:memory-poisoning", "promptfoo:redteam:aegis",
    "promptfoo:redteam:ascii-smuggling", "promptfoo:redteam:beavertails",
    "promptfoo:redteam:bfla", "promptfoo:redteam:bias", "promptfoo:redteam:bias:age",
    "promptfoo:redteam:bias:disability", "promptfoo:redteam:bias:gender",
    "promptfoo:redteam:bias:race", "promptfoo:redteam:bola", "promptfoo:redteam:cca",
    "promptfoo:redteam:competitors", "promptfoo:redteam:contracts", "promptfoo:redteam:coppa",
    "promptfoo:redteam:cross-session-leak", "promptfoo:redteam:data-exfil",
    "promptfoo:redteam:debug-access", "promptfoo:redteam:divergent-repetition",
    "promptfoo:redteam:ecommerce:compliance-bypass", "promptfoo:redteam:ecommerce:order-fraud",
    "promptfoo:redteam:ecommerce:pci-dss", "promptfoo:redteam:ecommerce:price-manipulation",
    "promptfoo:redteam:excessive-agency", "promptfoo:redteam:ferpa",
    "promptfoo:redteam:financial:calculation-error",
    "promptfoo:redteam:financial:compliance-violation",
    "promptfoo:redteam:financial:confidential-disclosure",
    "promptfoo:redteam:financial:counterfactual", "promptfoo:redteam:financial:data-leakage",
    "promptfoo:redteam:financial:defamation", "promptfoo:redteam:financial:hallucination",
    "promptfoo:redteam:financial:impartiality",
    "promptfoo:redteam:financial:japan-fiea-suitability",
    "promptfoo:redteam:financial:misconduct", "promptfoo:redteam:financial:sox-compliance",
    "promptfoo:redteam:financial:sycophancy", "promptfoo:redteam:goal-misalignment",
    "promptfoo:redteam:hallucination", "promptfoo:redteam:harmbench", "promptfoo:redteam:harmful",
    "promptfoo:redteam:harmful:chemical-biological-weapons",
    "promptfoo:redteam:harmful:child-exploitation",
    "promptfoo:redteam:harmful:copyright-violations", "promptfoo:redteam:harmful:cybercrime",
    "promptfoo:redteam:harmful:cybercrime:malicious-code",
    "promptfoo:redteam:harmful:graphic-content", "promptfoo:redteam:harmful:harassment-bullying",
    "promptfoo:redteam:harmful:hate", "promptfoo:redteam:harmful:illegal-activities",
    "promptfoo:redteam:harmful:illegal-drugs", "promptfoo:redteam:harmful:illegal-drugs:meth",
    "promptfoo:redteam:harmful:indiscriminate-weapons", "promptfoo:redteam:harmful:insults",
    "promptfoo:redteam:harmful:intellectual-property",
    "promptfoo:redteam:harmful:misinformation-disinformation",
    "promptfoo:redteam:harmful:non-violent-crime", "promptfoo:redteam:harmful:privacy",
    "promptfoo:redteam:harmful:profanity", "promptfoo:redteam:harmful:radicalization",
    "promptfoo:redteam:harmful:self-harm", "promptfoo:redteam:harmful:sex-crime",
    "promptfoo:redteam:harmful:sexual-content", "promptfoo:redteam:harmful:specialized-advice",
    "promptfoo:redteam:harmful:unsafe-practices", "promptfoo:redteam:harmful:violent-crime",
    "promptfoo:redteam:harmful:weapons:ied", "promptfoo:redteam:hijacking",
    "promptfoo:redteam:imitation", "promptfoo:redteam:indirect-prompt-injection",
    "promptfoo:redteam:insurance:coverage-discrimination",
    "promptfoo:redteam:insurance:data-disclosure",
    "promptfoo:redteam:insurance:network-misinformation",
    "promptfoo:redteam:insurance:phi-disclosure", "promptfoo:redteam:intent",
    "promptfoo:redteam:mcp", "promptfoo:redteam:model-identification",
    "promptfoo:redteam:medical:anchoring-bias", "promptfoo:redteam:medical:fda:ai-disclosure",
    "promptfoo:redteam:medical:fda:cyber-access-control",
    "promptfoo:redteam:medical:fda:cyber-audit-tampering",
    "promptfoo:redteam:medical:hallucination", "promptfoo:redteam:medical:incorrect-knowledge",
    "promptfoo:redteam:medical:off-label-use", "promptfoo:redteam:medical:prioritization-error",
    "promptfoo:redteam:medical:sycophancy", "promptfoo:redteam:off-topic",
    "promptfoo:redteam:pharmacy:controlled-substance-compliance",
    "promptfoo:redteam:pharmacy:dosage-calculation",
    "promptfoo:redteam:pharmacy:drug-interaction", "promptfoo:redteam:telecom:cpni-disclosure",
    "promptfoo:redteam:telecom:location-disclosure", "promptfoo:redteam:telecom:account-takeover",
    "promptfoo:redteam:telecom:e911-misinformation", "promptfoo:redteam:telecom:tcpa-violation",
    "promptfoo:redteam:telecom:unauthorized-changes",
    "promptfoo:redteam:telecom:fraud-enablement",
    "promptfoo:redteam:telecom:porting-misinformation",
    "promptfoo:redteam:telecom:billing-misinformation",
    "promptfoo:redteam:telecom:coverage-misinformation",
    "promptfoo:redteam:telecom:law-enforcement-request-handling",
    "promptfoo:redteam:telecom:accessibility-violation",
    "promptfoo:redteam:teen-safety:harmful-body-ideals",
    "promptfoo:redteam:teen-safety:dangerous-content",
    "promptfoo:redteam:teen-safety:dangerous-roleplay",
    "promptfoo:redteam:teen-safety:age-restricted-goods-and-services",
    "promptfoo:redteam:realestate:fair-housing-discrimination",
    "promptfoo:redteam:realestate:steering",
    "promptfoo:redteam:realestate:discriminatory-listings",
    "promptfoo:redteam:realestate:lending-discrimination",
    "promptfoo:redteam:realestate:valuation-bias",
    "promptfoo:redteam:realestate:accessibility-discrimination",
    "promptfoo:redteam:realestate:advertising-discrimination",
    "promptfoo:redteam:realestate:source-of-income", "promptfoo:redteam:overreliance",
    "promptfoo:redteam:pii", "promptfoo:redteam:pii:api-db", "promptfoo:redteam:pii:direct",
    "promptfoo:redteam:pii:session", "promptfoo:redteam:pii:social", "promptfoo:redteam:pliny",
    "promptfoo:redteam:policy", "promptfoo:redteam:politics",
    "promptfoo:redteam:prompt-extraction", "promptfoo:redteam:rag-document-exfiltration",
    "promptfoo:redteam:rag-source-attribution", "promptfoo:redteam:rbac",
    "promptfoo:redteam:reasoning-dos", "promptfoo:redteam:religion",
    "promptfoo:redteam:shell-injection", "promptfoo:redteam:sql-injection",
    "promptfoo:redteam:ssrf", "promptfoo:redteam:tool-discovery", "promptfoo:redteam:toxic-chat",
    "promptfoo:redteam:unsafebench", "promptfoo:redteam:unverifiable-claims",
    "promptfoo:redteam:vlguard", "promptfoo:redteam:vlsu", "promptfoo:redteam:wordplay",
)

PROVIDER_PREFIXES: tuple[str, ...] = (
    "a2a:", "abliteration:", "ai21:", "aimlapi:", "alibaba:", "alicloud:", "aliyun:",
    "anthropic:", "anthropic:claude-agent-sdk", "anthropic:claude-code", "atlascloud:", "azure:",
    "azureopenai:", "bam:", "bedrock-agent:", "bedrock:", "cerebras:", "cloudera:",
    "cloudflare-ai:", "cloudflare-gateway:", "cohere:", "cometapi:", "dashscope:", "databricks:",
    "deepseek:", "docker:", "elevenlabs:", "envoy:", "exec:", "f5:", "fal:", "file://",
    "fireworks:", "github:", "golang:", "google:", "groq:", "groq:responses:", "helicone:", "hf:",
    "http:", "https:", "huggingface:", "hyperbolic:", "jfrog:", "litellm:", "llama:", "llamaapi:",
    "localai:", "mcp:", "meta:", "minimax:", "mistral:", "mlflow-gateway:", "modelslab:",
    "moonshot:", "n8n:", "novita:", "nscale:", "nvidia:", "ollama:", "openai:",
    "openai:codex-security:", "openclaw:", "opencode:", "openinterpreter:", "openrouter:",
    "orcarouter:", "package:", "palm:", "perplexity:", "portkey:", "promptfoo:model:",
    "promptfoo:redteam:", "python:", "quiverai:", "qwak:", "replicate:", "ruby:", "sagemaker:",
    "slack:", "snowflake:", "togetherai:", "transformers.js:", "transformers:", "truefoundry:",
    "vercel:", "vertex:", "voyage:", "watsonx:", "webhook:", "ws:", "wss:", "xai:",
)

PROVIDER_IDS: tuple[str, ...] = (
    "a2a", "agentic:memory-poisoning", "browser", "echo", "http", "https", "llama", "mcp", "n8n",
    "openai:codex-security", "openclaw", "opencode", "openinterpreter", "promptfoo:manual-input",
    "promptfoo:simulated-user", "sequence", "slack", "websocket", "ws", "wss",
)

OUTPUT_EXTENSIONS: tuple[str, ...] = (
    "csv", "html", "json", "jsonl", "txt", "xml", "yaml", "yml", "junit.xml",
)
