-- bidi-lsp: textDocument/publishDiagnostics into vim.diagnostic.
--
-- Neovim's own handler (0.7-0.9) reads every line of the buffer on each
-- publish to turn LSP characters into byte columns (85-115 ms at 100,000
-- lines, even for an empty set). The plugin asks for utf-8 positions, whose
-- characters are byte columns already: this handler converts without
-- reading the buffer, and leaves other encodings to Neovim's handler.
local M = {}

local function to_vim(diagnostic)
  local start, stop = diagnostic.range.start, diagnostic.range['end']
  local severity = diagnostic.severity
  if type(severity) == 'string' then
    severity = vim.lsp.protocol.DiagnosticSeverity[severity]
  end
  return {
    lnum = start.line,
    col = start.character,
    end_lnum = stop.line,
    end_col = stop.character,
    severity = severity,
    message = diagnostic.message,
    source = diagnostic.source,
    code = diagnostic.code,
    user_data = {
      lsp = {
        code = diagnostic.code,
        codeDescription = diagnostic.codeDescription,
        tags = diagnostic.tags,
        relatedInformation = diagnostic.relatedInformation,
        data = diagnostic.data,
      },
    },
  }
end

-- The handler (err, result, ctx, config) of textDocument/publishDiagnostics.
function M.on_publish(err, result, ctx, config)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if not client or client.offset_encoding ~= 'utf-8' or config then
    return vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
  end
  local fname = vim.uri_to_fname(result.uri)
  local diagnostics = result.diagnostics or {}
  if #diagnostics == 0 and vim.fn.bufexists(fname) == 0 then
    return
  end
  local bufnr = vim.fn.bufadd(fname)
  vim.diagnostic.set(vim.lsp.diagnostic.get_namespace(ctx.client_id), bufnr, vim.tbl_map(to_vim, diagnostics))
end

return M
