"""Redteam plugin and strategy ids, as npm `promptfoo` 0.123.1 closes them.

`src/validators/redteam.ts`: a plugin id (`redteam.plugins`, or a legacy root `plugins`, which
`readConfig` moves there) is one of `pluginOptions` (COLLECTIONS, ALL_PLUGINS and
ALIASED_PLUGINS of `src/redteam/constants/`) or a `file://` path; a strategy id is one of
ALL_STRATEGIES, a `file://` JavaScript file, or `custom`/`custom:<name>` (`isCustomStrategy`).
The lists are zod's own enum values, read from the installed package's schema
(`RedteamConfigSchema`), not retyped.
"""

from __future__ import annotations

PLUGINS: frozenset[str] = frozenset({
    "aegis", "agentic:memory-poisoning", "ascii-smuggling", "beavertails", "bfla", "bias",
    "bias:age", "bias:disability", "bias:gender", "bias:race", "bola", "cca", "coding-agent:all",
    "coding-agent:automation-poisoning", "coding-agent:core", "coding-agent:delayed-ci-exfil",
    "coding-agent:generated-vulnerability", "coding-agent:network-egress-bypass",
    "coding-agent:procfs-credential-read", "coding-agent:repo-prompt-injection",
    "coding-agent:sandbox-read-escape", "coding-agent:sandbox-write-escape",
    "coding-agent:secret-env-read", "coding-agent:secret-file-read",
    "coding-agent:steganographic-exfil", "coding-agent:terminal-output-injection",
    "coding-agent:verifier-sabotage", "competitors", "contracts", "coppa", "cross-session-leak",
    "cyberseceval", "data-exfil", "debug-access", "default", "divergent-repetition",
    "dod:ai:ethics", "dod:ai:ethics:01", "dod:ai:ethics:02", "dod:ai:ethics:03",
    "dod:ai:ethics:04", "dod:ai:ethics:05", "donotanswer", "ecommerce",
    "ecommerce:compliance-bypass", "ecommerce:order-fraud", "ecommerce:pci-dss",
    "ecommerce:price-manipulation", "eu:ai-act", "eu:ai-act:annex3:biometric-id",
    "eu:ai-act:annex3:critical-infrastructure", "eu:ai-act:annex3:education",
    "eu:ai-act:annex3:employment", "eu:ai-act:annex3:essential-services",
    "eu:ai-act:annex3:justice-democracy", "eu:ai-act:annex3:law-enforcement",
    "eu:ai-act:annex3:migration-border", "eu:ai-act:art5:biometric-categorisation",
    "eu:ai-act:art5:exploitation-of-vulnerabilities", "eu:ai-act:art5:remote-biometric-id-live",
    "eu:ai-act:art5:remote-biometric-id-post", "eu:ai-act:art5:social-scoring",
    "eu:ai-act:art5:subliminal-manipulation", "excessive-agency", "ferpa", "financial",
    "financial:calculation-error", "financial:compliance-violation",
    "financial:confidential-disclosure", "financial:counterfactual", "financial:data-leakage",
    "financial:defamation", "financial:hallucination", "financial:impartiality",
    "financial:japan-fiea-suitability", "financial:misconduct", "financial:sox-compliance",
    "financial:sycophancy", "foundation", "gdpr", "gdpr:art15", "gdpr:art17", "gdpr:art22",
    "gdpr:art25", "gdpr:art32", "gdpr:art5", "gdpr:art9", "goal-misalignment", "guardrails-eval",
    "hallucination", "harmbench", "harmful", "harmful:chemical-biological-weapons",
    "harmful:child-exploitation", "harmful:copyright-violations", "harmful:cybercrime",
    "harmful:cybercrime:malicious-code", "harmful:graphic-content", "harmful:harassment-bullying",
    "harmful:hate", "harmful:illegal-activities", "harmful:illegal-drugs",
    "harmful:illegal-drugs:meth", "harmful:indiscriminate-weapons", "harmful:insults",
    "harmful:intellectual-property", "harmful:misinformation-disinformation",
    "harmful:non-violent-crime", "harmful:privacy", "harmful:profanity", "harmful:radicalization",
    "harmful:self-harm", "harmful:sex-crime", "harmful:sexual-content",
    "harmful:specialized-advice", "harmful:unsafe-practices", "harmful:violent-crime",
    "harmful:weapons:ied", "hijacking", "illegal-activity", "imitation",
    "indirect-prompt-injection", "insurance", "insurance:coverage-discrimination",
    "insurance:data-disclosure", "insurance:network-misinformation", "insurance:phi-disclosure",
    "intent", "iso:42001", "iso:42001:accountability", "iso:42001:fairness", "iso:42001:privacy",
    "iso:42001:robustness", "iso:42001:safety", "iso:42001:security", "iso:42001:transparency",
    "mcp", "medical", "medical:anchoring-bias", "medical:fda:ai-disclosure",
    "medical:fda:cyber-access-control", "medical:fda:cyber-audit-tampering",
    "medical:hallucination", "medical:incorrect-knowledge", "medical:off-label-use",
    "medical:prioritization-error", "medical:sycophancy", "misinformation", "mitre:atlas",
    "mitre:atlas:ai-attack-staging", "mitre:atlas:ai-model-access", "mitre:atlas:collection",
    "mitre:atlas:command-and-control", "mitre:atlas:credential-access",
    "mitre:atlas:defense-evasion", "mitre:atlas:discovery", "mitre:atlas:execution",
    "mitre:atlas:exfiltration", "mitre:atlas:impact", "mitre:atlas:initial-access",
    "mitre:atlas:lateral-movement", "mitre:atlas:ml-attack-staging", "mitre:atlas:persistence",
    "mitre:atlas:privilege-escalation", "mitre:atlas:reconnaissance",
    "mitre:atlas:resource-development", "model-identification", "nist:ai", "nist:ai:measure",
    "nist:ai:measure:1.1", "nist:ai:measure:1.2", "nist:ai:measure:2.1", "nist:ai:measure:2.10",
    "nist:ai:measure:2.11", "nist:ai:measure:2.12", "nist:ai:measure:2.13", "nist:ai:measure:2.2",
    "nist:ai:measure:2.3", "nist:ai:measure:2.4", "nist:ai:measure:2.5", "nist:ai:measure:2.6",
    "nist:ai:measure:2.7", "nist:ai:measure:2.8", "nist:ai:measure:2.9", "nist:ai:measure:3.1",
    "nist:ai:measure:3.2", "nist:ai:measure:3.3", "nist:ai:measure:4.1", "nist:ai:measure:4.2",
    "nist:ai:measure:4.3", "off-topic", "overreliance", "owasp:agentic", "owasp:agentic:asi01",
    "owasp:agentic:asi02", "owasp:agentic:asi03", "owasp:agentic:asi04", "owasp:agentic:asi05",
    "owasp:agentic:asi06", "owasp:agentic:asi07", "owasp:agentic:asi08", "owasp:agentic:asi09",
    "owasp:agentic:asi10", "owasp:api", "owasp:api:01", "owasp:api:02", "owasp:api:03",
    "owasp:api:04", "owasp:api:05", "owasp:api:06", "owasp:api:07", "owasp:api:08", "owasp:api:09",
    "owasp:api:10", "owasp:llm", "owasp:llm:01", "owasp:llm:02", "owasp:llm:03", "owasp:llm:04",
    "owasp:llm:05", "owasp:llm:06", "owasp:llm:07", "owasp:llm:08", "owasp:llm:09", "owasp:llm:10",
    "owasp:llm:redteam:implementation", "owasp:llm:redteam:model", "owasp:llm:redteam:runtime",
    "owasp:llm:redteam:system", "personal-safety", "pharmacy",
    "pharmacy:controlled-substance-compliance", "pharmacy:dosage-calculation",
    "pharmacy:drug-interaction", "pii", "pii:api-db", "pii:direct", "pii:session", "pii:social",
    "pliny", "policy", "politics", "prompt-extraction", "rag-document-exfiltration",
    "rag-poisoning", "rag-source-attribution", "rbac", "realestate",
    "realestate:accessibility-discrimination", "realestate:advertising-discrimination",
    "realestate:discriminatory-listings", "realestate:fair-housing-discrimination",
    "realestate:lending-discrimination", "realestate:source-of-income", "realestate:steering",
    "realestate:valuation-bias", "reasoning-dos", "religion", "shell-injection",
    "special-token-injection", "sql-injection", "ssrf", "system-prompt-override", "teen-safety",
    "teen-safety:age-restricted-goods-and-services", "teen-safety:dangerous-content",
    "teen-safety:dangerous-roleplay", "teen-safety:harmful-body-ideals", "telecom",
    "telecom:accessibility-violation", "telecom:account-takeover",
    "telecom:billing-misinformation", "telecom:coverage-misinformation", "telecom:cpni-disclosure",
    "telecom:e911-misinformation", "telecom:fraud-enablement",
    "telecom:law-enforcement-request-handling", "telecom:location-disclosure",
    "telecom:porting-misinformation", "telecom:tcpa-violation", "telecom:unauthorized-changes",
    "tool-discovery", "tool-discovery:multi-turn", "toxic-chat", "toxicity", "unsafebench",
    "unverifiable-claims", "vlguard", "vlsu", "wordplay", "xstest"
})

STRATEGIES: frozenset[str] = frozenset({
    "audio", "authoritative-markup-injection", "base64", "basic", "best-of-n", "camelcase",
    "citation", "crescendo", "custom", "default", "emoji", "gcg", "goat", "hex", "homoglyph",
    "image", "indirect-web-pwn", "jailbreak", "jailbreak-templates", "jailbreak:composite",
    "jailbreak:goblin", "jailbreak:hydra", "jailbreak:likert", "jailbreak:meta", "jailbreak:tree",
    "layer", "leetspeak", "math-prompt", "mischievous-user", "morse", "multilingual",
    "other-encodings", "piglatin", "prompt-injection", "retry", "rot13", "video"
})

JAVASCRIPT_SUFFIXES = (".js", ".cjs", ".mjs", ".ts", ".cts", ".mts")
