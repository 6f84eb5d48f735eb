-- Runs inside `nvim --headless` after the docs/editors.md recipe (init.lua). Reads Neovim's own
-- view of the server: vim.diagnostic.get, textDocument/completion through
-- vim.lsp.buf_request_sync, vim.lsp.buf.definition() jumping, and a code action's edit applied
-- through vim.lsp.util; JSON, JSON Lines and Markdown buffers get what the CLI says about them.
-- Works on Neovim 0.7 and later (the 0.7 and the 0.11 recipe).
local ws = assert(os.getenv('EY_WORKSPACE'), 'EY_WORKSPACE is not set')
local timeout = tonumber(os.getenv('EY_TIMEOUT_MS') or '30000')
local KINDS = {
  'must_contain_any', 'must_not_contain', 'regex', 'json_schema', 'php_lint', 'markdown_structure',
  'tool_usage', 'format', 'fact_match', 'llm_judge', 'composite',
}
local TYPO_FILE = 'mistakes/datasets/EY205-typo-expecteed_facts.yaml'
local NOT_OURS = 'deploy/k8s-service.yaml'
local EEE_JSON = 'eee/mistakes/EY700-unknown-version/data/arith-demo/acme/tiny-model/5c4b3a29-1807-4f6e-9d5c-4b3a29180706.json'
local EEE_JSONL = 'eee/mistakes/EY704-unknown-row-key/data/arith-demo/acme/tiny-model/5c4b3a29-1807-4f6e-9d5c-4b3a29180706_samples.jsonl'
local APASTRA_JSON = 'apastra/mistakes/derived-index/baselines/EY804-malformed-digest.json'
local PROMPT = 'agentv/evals/prompts/support-grader.md'
local NOT_A_PROMPT = 'README.md'
local passed, failed = 0, 0

local function out(line)
  io.stdout:write(line .. '\n')
  io.stdout:flush()
end

local function check(name, fn)
  local ok, detail = pcall(fn)
  if ok then
    passed = passed + 1
    out('PASS ' .. name .. (detail and (': ' .. tostring(detail)) or ''))
  else
    failed = failed + 1
    out('FAIL ' .. name .. ': ' .. tostring(detail))
  end
end

local function read_lines(rel)
  local lines = {}
  for l in io.lines(ws .. '/' .. rel) do
    table.insert(lines, l)
  end
  return lines
end

local function list_yaml(dir)
  local files = vim.fn.globpath(ws .. '/' .. dir, '**/*.yaml', false, true)
  table.sort(files)
  local rel = {}
  for _, f in ipairs(files) do
    table.insert(rel, f:sub(#ws + 2))
  end
  return rel
end

-- 1-based line of the first mapping key `key`, and the 0-based byte column where it starts.
local function find_key(rel, key)
  for i, l in ipairs(read_lines(rel)) do
    local indent = l:match('^(%s*%-?%s*)' .. vim.pesc(key) .. '%s*:')
    if indent then
      return i, #indent, l
    end
  end
  error(rel .. ' has no key ' .. key)
end

-- Client methods are called with `:` from 0.11 on (`client.request_sync(...)` is deprecated
-- there, and an error in 0.12); 0.7-0.10 only have the `.` form.
local methods_take_self = vim.fn.has('nvim-0.11') == 1
local function client_call(client, method, ...)
  if methods_take_self then
    return client[method](client, ...)
  end
  return client[method](...)
end
local uv = vim.uv or vim.loop

local function buf_clients(buf)
  -- vim.lsp.get_clients is 0.10+; buf_get_clients is 0.7-0.11.
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.lsp.buf_get_clients(buf)
end

local function all_clients()
  return vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
end

-- The LSP diagnostics on a line, as sent in a codeAction context.
local function lsp_line_diagnostics(buf, lnum)
  if vim.lsp.diagnostic.get_line_diagnostics then -- up to 0.9
    return vim.lsp.diagnostic.get_line_diagnostics(buf, lnum)
  end
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf, { lnum = lnum })) do
    local lsp = d.user_data and d.user_data.lsp
    if lsp and lsp.range then
      table.insert(out, lsp)
    end
  end
  return out
end

local function evalyaml_client(buf)
  for _, c in pairs(buf_clients(buf)) do
    if c.name == 'evalyaml' then
      return c
    end
  end
end

local function open(rel)
  vim.cmd('silent edit! ' .. vim.fn.fnameescape(ws .. '/' .. rel))
  local buf = vim.api.nvim_get_current_buf()
  local ok = vim.wait(timeout, function()
    local c = evalyaml_client(buf)
    return c ~= nil and c.initialized == true
  end, 50)
  if not ok then
    error('the evalyaml client did not attach to ' .. rel .. ' within ' .. timeout .. ' ms')
  end
  return buf, evalyaml_client(buf)
end

local function evalyaml_diagnostics(buf)
  local mine = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.source == 'evalyaml' or (type(d.code) == 'string' and d.code:match('^EY%d')) then
      table.insert(mine, d)
    end
  end
  return mine
end

local function completion_labels(buf, line, col)
  vim.api.nvim_win_set_cursor(0, { line, col })
  local params = vim.lsp.util.make_position_params(0, evalyaml_client(buf).offset_encoding)
  local labels = {}
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/completion', params, timeout) or {}
  for _, resp in pairs(responses) do
    local result = resp.result
    local items = result and (result.items or result) or {}
    for _, item in ipairs(items) do
      labels[item.label] = true
    end
  end
  return labels
end

local function missing_kinds(labels)
  local missing = {}
  for _, k in ipairs(KINDS) do
    if not labels[k] then
      table.insert(missing, k)
    end
  end
  return missing
end

-- Replaces the value after `kind:` on `line` with nothing; returns the cursor column after it.
local function blank_kind_value(buf, line)
  local text = vim.api.nvim_buf_get_lines(buf, line - 1, line, true)[1]
  local prefix = text:match('^(%s*%-?%s*kind:%s*)')
  vim.api.nvim_buf_set_lines(buf, line - 1, line, true, { prefix })
  return #prefix
end

check('the recipe attaches evalyaml to YAML buffers at the workspace root', function()
  local _, client = open(TYPO_FILE)
  local root = client.config.root_dir
  if vim.fn.resolve(root) ~= vim.fn.resolve(ws) then
    error('root_dir is ' .. tostring(root) .. ', expected ' .. ws)
  end
  return 'client ' .. client.id .. ' root ' .. root
end)

check('(a) vim.diagnostic lists the EY205 typo', function()
  local buf = open(TYPO_FILE)
  local line, col = find_key(TYPO_FILE, 'expecteed_facts')
  local hit
  vim.wait(timeout, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == 'EY205' then
        hit = d
        return true
      end
    end
    return false
  end, 100)
  if not hit then
    error('no EY205 diagnostic; got ' .. vim.inspect(vim.diagnostic.get(buf)))
  end
  if hit.lnum ~= line - 1 or hit.col ~= col then
    error(('EY205 at %d:%d, expected %d:%d'):format(hit.lnum + 1, hit.col, line, col))
  end
  return ('%s:%d:%d [%s] %s'):format(TYPO_FILE, hit.lnum + 1, hit.col + 1, tostring(hit.source), hit.message)
end)

check('(b) completion after `kind: ` offers the eleven check kinds', function()
  local rel, line
  for _, f in ipairs(list_yaml('rubrics')) do
    for i, l in ipairs(read_lines(f)) do
      if l:match('^%s*%-?%s*kind:%s*%S') then
        rel, line = f, i
        break
      end
    end
    if rel then
      break
    end
  end
  assert(rel, 'no rubric with a kind: line')
  local buf = open(rel)
  local col = blank_kind_value(buf, line)
  local labels, missing = {}, KINDS
  vim.wait(timeout, function()
    labels = completion_labels(buf, line, col)
    missing = missing_kinds(labels)
    return #missing == 0
  end, 500)
  vim.cmd('silent edit!')
  if #missing > 0 then
    error(('%s:%d missing %s; offered %s'):format(rel, line, table.concat(missing, ', '),
      table.concat(vim.tbl_keys(labels), ', ')))
  end
  return ('%s:%d offered %d items'):format(rel, line, vim.tbl_count(labels))
end)

check('(c) vim.lsp.buf.definition() on rubric_ref jumps to the rubric id line', function()
  local rel, line, col, id
  for _, f in ipairs(list_yaml('datasets')) do
    for i, l in ipairs(read_lines(f)) do
      local pre, name = l:match('^(%s*%-?%s*rubric_ref:%s*["\']?rubric/)([%w_%-]+)')
      if pre then
        rel, line, col, id = f, i, #pre + 1, name
        break
      end
    end
    if rel then
      break
    end
  end
  assert(rel, 'no dataset with a rubric_ref')
  local buf = open(rel)
  -- Asked again until it answers: right after start the server may still be indexing.
  local deadline = uv.now() + timeout
  local moved, tries, t0 = false, 0, uv.now()
  while not moved and uv.now() < deadline do
    tries = tries + 1
    vim.api.nvim_set_current_buf(buf)
    vim.api.nvim_win_set_cursor(0, { line, col })
    vim.lsp.buf.definition()
    moved = vim.wait(2000, function()
      return vim.api.nvim_get_current_buf() ~= buf
    end, 50)
  end
  if not moved then
    error(('definition from %s:%d:%d did not open another buffer'):format(rel, line, col + 1))
  end
  local target = vim.api.nvim_buf_get_name(0):sub(#vim.fn.resolve(ws) + 2)
  local cur = vim.api.nvim_win_get_cursor(0)[1]
  local text = vim.api.nvim_get_current_line()
  if not target:match('rubrics/') or not text:match('^%s*id%s*:') or not text:find(id, 1, true) then
    error(('jumped to %s:%d ("%s"), not the id line of rubric %s'):format(target, cur, text, id))
  end
  return ('%s:%d -> %s:%d (%s) after %d request(s), %d ms'):format(rel, line, target, cur, text, tries,
    uv.now() - t0)
end)

check('(d) the EY205 code action fixes the key', function()
  local buf, client = open(TYPO_FILE)
  local line, col = find_key(TYPO_FILE, 'expecteed_facts')
  local diags
  vim.wait(timeout, function()
    diags = lsp_line_diagnostics(buf, line - 1)
    return #diags > 0
  end, 100)
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(buf),
    range = { start = { line = line - 1, character = col }, ['end'] = { line = line - 1, character = col + 1 } },
    context = { diagnostics = diags, only = { 'quickfix' } },
  }
  local actions = {}
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, timeout) or {}
  for _, resp in pairs(responses) do
    for _, a in ipairs(resp.result or {}) do
      table.insert(actions, a)
    end
  end
  local chosen
  for _, a in ipairs(actions) do
    if a.title:find('expected_facts', 1, true) or (a.edit and vim.inspect(a.edit):find('expected_facts', 1, true)) then
      chosen = a
      break
    end
  end
  if not chosen then
    local titles = vim.tbl_map(function(a) return a.title end, actions)
    error('no code action naming expected_facts; got: ' .. table.concat(titles, ' | '))
  end
  if not chosen.edit and not chosen.command then
    local r = client_call(client, 'request_sync', 'codeAction/resolve', chosen, timeout, buf)
    chosen = (r and r.result) or chosen
  end
  if chosen.edit then
    vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
  end
  if chosen.command then
    local cmd = type(chosen.command) == 'table' and chosen.command or chosen
    client_call(client, 'request_sync', 'workspace/executeCommand', { command = cmd.command, arguments = cmd.arguments }, timeout, buf)
  end
  local fixed = vim.api.nvim_buf_get_lines(buf, line - 1, line, true)[1]
  vim.cmd('silent edit!')
  if not fixed:match('^%s*%-?%s*expected_facts%s*:') then
    error(('after "%s" line %d reads "%s"'):format(chosen.title, line, fixed))
  end
  return ('"%s" -> line %d: %s'):format(chosen.title, line, vim.trim(fixed))
end)

check('(e) YAML that is not an eval file gets nothing from evalyaml', function()
  local buf = open(NOT_OURS)
  local line = find_key(NOT_OURS, 'kind')
  local col = blank_kind_value(buf, line)
  local labels = completion_labels(buf, line, col)
  vim.cmd('silent edit!')
  vim.wait(3000, function()
    return #evalyaml_diagnostics(buf) > 0
  end, 100)
  local diags = evalyaml_diagnostics(buf)
  if #diags > 0 then
    error(('%d evalyaml diagnostics, first: %s'):format(#diags, diags[1].message))
  end
  local offered = {}
  for _, k in ipairs(KINDS) do
    if labels[k] then
      table.insert(offered, k)
    end
  end
  if #offered > 0 then
    error('completion offered check kinds: ' .. table.concat(offered, ', '))
  end
  return 'no diagnostics, no check kinds'
end)

-- What `evalyaml check` says about a file: { code, lnum, col, end_lnum, end_col, message }
-- with Neovim's 0-based byte columns (the CLI counts code points).
local function cli_findings(rel)
  local text = vim.fn.system({ 'evalyaml', 'check', '--format', 'json', rel })
  if vim.v.shell_error > 1 then
    error('evalyaml check ' .. rel .. ' exited with ' .. vim.v.shell_error .. ': ' .. text)
  end
  local lines = read_lines(rel)
  local out = {}
  for _, f in ipairs(vim.fn.json_decode(text)) do
    local s, e = f.range.start, f.range['end']
    table.insert(out, {
      code = f.code,
      lnum = s.line,
      col = vim.fn.byteidx(lines[s.line + 1] or '', s.character),
      end_lnum = e.line,
      end_col = vim.fn.byteidx(lines[e.line + 1] or '', e.character),
      message = f.message,
    })
  end
  return out
end

local function describe_diagnostics(list)
  local parts = {}
  for _, d in ipairs(list) do
    table.insert(parts, ('%s %d:%d-%d:%d %s'):format(tostring(d.code), d.lnum, d.col, d.end_lnum or -1,
      d.end_col or -1, d.message))
  end
  table.sort(parts)
  return table.concat(parts, ' | ')
end

-- Opens `rel` and waits until its evalyaml diagnostics are the CLI's, exactly.
local function same_as_cli(rel, filetype)
  local expected = cli_findings(rel)
  if #expected == 0 then
    error('the CLI finds nothing in ' .. rel .. ': not a mistake file')
  end
  local buf = open(rel)
  if vim.bo[buf].filetype ~= filetype then
    error(('%s has filetype %q, expected %q'):format(rel, vim.bo[buf].filetype, filetype))
  end
  local want, got = describe_diagnostics(expected), ''
  vim.wait(timeout, function()
    got = describe_diagnostics(evalyaml_diagnostics(buf))
    return got == want
  end, 100)
  if got ~= want then
    error(('diagnostics of %s:\n  got  %s\n  want %s'):format(rel, got, want))
  end
  return ('%s (%s): %s'):format(rel, filetype, want:sub(1, 120))
end

check('(f) a JSON file (Every Eval Ever aggregate) gets the diagnostics the CLI gives', function()
  return same_as_cli(EEE_JSON, 'json')
end)

check('(g) a JSON file (Apastra baseline) gets the diagnostics the CLI gives', function()
  return same_as_cli(APASTRA_JSON, 'json')
end)

check('(h) a JSON Lines file (Every Eval Ever samples) gets the diagnostics the CLI gives', function()
  return same_as_cli(EEE_JSONL, 'jsonl')
end)

check('(i) a Markdown grader prompt an AgentV suite names is checked as it is edited', function()
  local buf = open(PROMPT)
  if vim.bo[buf].filetype ~= 'markdown' then
    error('filetype ' .. vim.bo[buf].filetype)
  end
  local line, col
  for i, l in ipairs(read_lines(PROMPT)) do
    local at = l:find('{{ output }}', 1, true)
    if at then
      line, col = i, at - 1
      break
    end
  end
  assert(line, PROMPT .. ' has no {{ output }}')
  vim.api.nvim_buf_set_text(buf, line - 1, col + 3, line - 1, col + 9, { 'ouput' })
  local hit
  vim.wait(timeout, function()
    for _, d in ipairs(evalyaml_diagnostics(buf)) do
      if d.code == 'EY624' then
        hit = d
        return true
      end
    end
    return false
  end, 100)
  vim.cmd('silent edit!')
  if not hit then
    error('no EY624 for {{ ouput }}; got ' .. describe_diagnostics(evalyaml_diagnostics(buf)))
  end
  if hit.lnum ~= line - 1 or hit.col ~= col + 3 or hit.end_col ~= col + 8 then
    error(('EY624 at %d:%d-%d, expected %d:%d-%d'):format(hit.lnum, hit.col, hit.end_col, line - 1, col + 3,
      col + 8))
  end
  return ('%s:%d:%d [%s] %s'):format(PROMPT, line, col + 4, hit.code, hit.message)
end)

check('(j) Markdown that no suite names gets nothing from evalyaml', function()
  local buf = open(NOT_A_PROMPT)
  vim.api.nvim_buf_set_lines(buf, 0, 0, true, { 'Grade {{ ouput }} here.' })
  vim.wait(3000, function()
    return #evalyaml_diagnostics(buf) > 0
  end, 100)
  local diags = evalyaml_diagnostics(buf)
  local labels = completion_labels(buf, 1, #'Grade {{ ou')
  vim.cmd('silent edit!')
  if #diags > 0 then
    error(('%d evalyaml diagnostics: %s'):format(#diags, describe_diagnostics(diags)))
  end
  if next(labels) ~= nil then
    error('completion offered ' .. table.concat(vim.tbl_keys(labels), ', '))
  end
  return 'attached, no diagnostics, no completion'
end)

out(('%d passed, %d failed'):format(passed, failed))
for _, c in pairs(all_clients()) do
  client_call(c, 'stop')
end
vim.wait(2000, function()
  return #all_clients() == 0
end, 50)
if failed > 0 then
  vim.cmd('cquit 1')
else
  vim.cmd('qall!')
end
