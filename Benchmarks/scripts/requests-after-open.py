#!/usr/bin/env python3
"""How long requests wait while the daemon works on a document just opened.

Usage: requests-after-open.py DAEMON FILE URI LANGUAGE_ID

Opens FILE under URI with LANGUAGE_ID, then for 5 s sends a one-line
bidi/naturalDirection request (lines 0-59) every 10 ms, each after the answer
to the one before, and prints the first answer's time, when the first
publishDiagnostics came, and the follow-up requests' p50 and max latency.
Run it with two daemons (before and after a change) in the same run.
"""
import json, subprocess, sys, time, os, threading
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'editors', 'python'))
from bidi_lsp_client import frame, read_message  # the one framing
daemon = sys.argv[1]; path = sys.argv[2]; uri = sys.argv[3]; lang = sys.argv[4]
text = open(path, encoding='utf-8').read()
p = subprocess.Popen([daemon], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
sent = {}; got = {}; diag = [None]
def reader():
    while True:
        framed = read_message(p.stdout)
        if framed is None: return
        m = json.loads(framed[1])
        if 'id' in m and m['id'] in sent: got[m['id']] = time.time()
        if m.get('method') == 'textDocument/publishDiagnostics' and diag[0] is None: diag[0] = time.time()
threading.Thread(target=reader, daemon=True).start()
def send(o): p.stdin.write(frame(o)); p.stdin.flush()
send({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}); sent[1]=time.time()
while 1 not in got: time.sleep(0.001)
send({"jsonrpc":"2.0","method":"initialized","params":{}})
t0 = time.time()
send({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":uri,"languageId":lang,"version":1,"text":text}}})
i = 2
while time.time() - t0 < 5:
    line = (i * 37) % 60
    sent[i] = time.time()
    send({"jsonrpc":"2.0","id":i,"method":"bidi/naturalDirection","params":{"textDocument":{"uri":uri},"range":{"start":{"line":line,"character":0},"end":{"line":line+1,"character":0}}}})
    while i not in got: time.sleep(0.0005)
    i += 1
    time.sleep(0.01)
lat = sorted((got[k]-sent[k])*1000 for k in range(3, i))
print("%s: first answer %.0f ms, publish at %.0f ms, %d follow-up requests: p50 %.1f ms, max %.1f ms" % (os.path.basename(daemon), (got[2]-t0)*1000, ((diag[0] or 0)-t0)*1000, len(lat), lat[len(lat)//2], lat[-1]))
send({"jsonrpc":"2.0","id":999999,"method":"shutdown"}); sent[999999]=0
send({"jsonrpc":"2.0","method":"exit"})
