-- Neovim's own LSP client (`vim.lsp.start_client`) driving `ctxguard lsp`
-- on a policy: what it shows, and what its edits make of the buffer,
-- written as JSON for tests/lsp_neovim.rs.
local bin = os.getenv("CTXGUARD_BIN")
local file = os.getenv("CTXGUARD_POLICY")
local out = os.getenv("CTXGUARD_OUT")
local result = {}

vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = "ctxguard",
  cmd = { bin, "lsp" },
  root_dir = vim.fn.fnamemodify(file, ":h"),
  flags = { debounce_text_changes = 0 },
})
vim.lsp.buf_attach_client(buf, client_id)
local uri = vim.uri_from_bufnr(buf)

local function request(method, params)
  local answers = vim.lsp.buf_request_sync(buf, method, params, 10000) or {}
  local answer = answers[client_id] or {}
  return answer.result
end

-- The diagnostics the client shows, once they arrive.
result.arrived = vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
result.diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local lsp = (d.user_data or {}).lsp or {}
  table.insert(result.diagnostics, {
    lnum = d.lnum, col = d.col, end_col = d.end_col, severity = d.severity,
    code = d.code or lsp.code, source = d.source or lsp.source, message = d.message,
  })
end

-- Hover on a kind of the file's own.
local hover = request("textDocument/hover", { textDocument = { uri = uri }, position = { line = 8, character = 7 } })
result.hover = hover and hover.contents and hover.contents.value

-- The quick fix for the misspelled kind, applied as the client applies it.
local first = vim.diagnostic.get(buf)[1]
local actions = request("textDocument/codeAction", {
  textDocument = { uri = uri },
  range = { start = { line = first.lnum, character = first.col }, ["end"] = { line = first.lnum, character = first.end_col } },
  context = { diagnostics = {} },
}) or {}
result.actions = {}
for _, action in ipairs(actions) do
  table.insert(result.actions, action.title)
  if action.edit then vim.lsp.util.apply_workspace_edit(action.edit, "utf-16") end
end

-- The fix clears the finding once the client sends the change.
result.cleared = vim.wait(10000, function() return #vim.diagnostic.get(buf) == 0 end, 20)

-- Formatting, applied to the buffer.
local edits = request("textDocument/formatting", { textDocument = { uri = uri }, options = { tabSize = 2, insertSpaces = true } })
if edits then vim.lsp.util.apply_text_edits(edits, buf, "utf-16") end
result.text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")

local handle = io.open(out, "w")
handle:write(vim.fn.json_encode(result))
handle:close()
vim.lsp.stop_client(client_id)
vim.cmd("qa!")
