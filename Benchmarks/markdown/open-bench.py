import sys, time, resource, subprocess, os
sys.path.insert(0, sys.argv[1])
from bidi_lsp_client import Client
binary=sys.argv[2]
def cpu(pid):
    with open("/proc/%d/stat"%pid) as f: parts=f.read().rsplit(")",1)[1].split()
    return (int(parts[11])+int(parts[12]))/os.sysconf("SC_CLK_TCK")
for rnd in range(2):
  for lang, path in [("plaintext","/tmp/h2/big.txt"),("markdown","/tmp/h2/big.md")]:
    c=Client([binary]); c.initialize(); c.notify("initialized",{})
    text=open(path,encoding="utf-8").read()
    t0=cpu(c.proc.pid); w0=time.time()
    c.notify("textDocument/didOpen",{"textDocument":{"uri":"file://"+path,"languageId":lang,"version":1,"text":text}})
    r=c.request("bidi/documentInfo",{"textDocument":{"uri":"file://"+path}}, timeout=600)
    c.wait_for_notification("textDocument/publishDiagnostics", timeout=600)
    print("%s open+diagnostics: cpu %.2fs wall %.2fs" % (lang, cpu(c.proc.pid)-t0, time.time()-w0))
    c.close()
