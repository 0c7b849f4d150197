;;; bidi-lsp-test-support.el --- Helpers of the bidi-lsp.el tests  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by the test files: the daemon to use, buffers with
;; `bidi-lsp-mode' on, and ways to watch what the mode sends and shows.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'bidi-lsp)

(defconst bidi-lsp-tests--root
  (expand-file-name "../../.." (file-name-directory (or load-file-name buffer-file-name)))
  "The repository's root.")

(setq bidi-lsp-command
      (list (let ((env (getenv "BIDI_LSP")))
              (if (and env (not (string-empty-p env)))
                  (expand-file-name env)
                (expand-file-name ".build/release/bidi-lsp" bidi-lsp-tests--root)))))
(setq bidi-lsp-idle-delay 3600)         ; updates are run by the tests

(defconst bidi-lsp-tests--rlm "\u200f")
(defconst bidi-lsp-tests--lrm "\u200e")
(defconst bidi-lsp-tests--rlo "\u202e")
(defconst bidi-lsp-tests--lri "\u2066")
(defconst bidi-lsp-tests--fsi "\u2068")
(defconst bidi-lsp-tests--pdi "\u2069")

(defmacro bidi-lsp-tests--with-buffer (text &rest body)
  "Run BODY in a new buffer holding TEXT with `bidi-lsp-mode' on.
A symbol as the first form of BODY is the major mode to use."
  (declare (indent 1))
  (let ((mode (if (symbolp (car body)) (pop body) 'text-mode)))
    `(let ((buffer (generate-new-buffer "bidi-lsp-test")))
       (unwind-protect
           (with-current-buffer buffer
             (insert ,text)
             (goto-char (point-min))
             (,mode)
             (bidi-lsp-mode 1)
             (should bidi-lsp-mode)
             ,@body)
         (kill-buffer buffer)))))

(defun bidi-lsp-tests--daemon-text ()
  "The daemon's copy of the current buffer."
  (plist-get (bidi-lsp-request :bidi/documentInfo
                               (list :textDocument (list :uri bidi-lsp--uri) :includeText t))
             :text))

(defun bidi-lsp-tests--should-be-in-sync ()
  "Check that the daemon's copy is the buffer's text."
  (should (equal (bidi-lsp-tests--daemon-text)
                 (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max))))))

(defun bidi-lsp-tests--wait-for (predicate)
  "Wait until PREDICATE is true, handling the daemon's output meanwhile."
  (with-timeout (10 (ert-fail "timed out waiting for the daemon"))
    (while (not (funcall predicate))
      (accept-process-output nil 0.02))))

(defun bidi-lsp-tests--line (n)
  "The text of line N (1-based)."
  (save-excursion
    (goto-char (point-min))
    (forward-line (1- n))
    (buffer-substring-no-properties (line-beginning-position) (line-end-position))))

(defun bidi-lsp-tests--line-bounds (n)
  "The bounds of line N (1-based), as a list."
  (save-excursion
    (goto-char (point-min))
    (forward-line (1- n))
    (list (line-beginning-position) (line-end-position))))

(defconst bidi-lsp-tests--trojan
  (concat "int main(void) {\n  int isAdmin = 0;\n  /*" bidi-lsp-tests--rlo " } "
          bidi-lsp-tests--lri "if (isAdmin)" bidi-lsp-tests--pdi " "
          bidi-lsp-tests--lri " begin admins only */\n  return 0;\n}\n")
  "A Trojan Source sample in C.")

;; What the mode sends

(defvar bidi-lsp-tests--sent nil
  "The messages sent to the daemon while recording, newest first: (METHOD . PARAMS).")

(defun bidi-lsp-tests--record (_connection &rest message)
  "Note MESSAGE, sent to the daemon."
  (when-let ((method (plist-get message :method)))
    (push (cons (if (keywordp method) (substring (symbol-name method) 1) (format "%s" method))
                (plist-get message :params))
          bidi-lsp-tests--sent)))

(defmacro bidi-lsp-tests--recording (&rest body)
  "Run BODY, noting in `bidi-lsp-tests--sent' the messages sent to the daemon."
  (declare (indent 0))
  `(progn
     (setq bidi-lsp-tests--sent nil)
     (advice-add 'jsonrpc-connection-send :before #'bidi-lsp-tests--record)
     (unwind-protect (progn ,@body)
       (advice-remove 'jsonrpc-connection-send #'bidi-lsp-tests--record))))

(defun bidi-lsp-tests--sent (method)
  "The params of the messages of METHOD sent while recording, oldest first."
  (reverse (cl-loop for (name . params) in bidi-lsp-tests--sent
                    when (equal name method) collect params)))

(defun bidi-lsp-tests--range-lines (params)
  "The lines (FIRST . LAST) of the range in PARAMS, 0-based."
  (let ((range (plist-get params :range)))
    (cons (plist-get (plist-get range :start) :line) (plist-get (plist-get range :end) :line))))

;; What the mode shows

(defmacro bidi-lsp-tests--messages (&rest body)
  "Run BODY; return the messages it showed, oldest first (with properties)."
  (declare (indent 0))
  `(let (shown)
     (cl-letf (((symbol-function 'message)
                (lambda (format &rest args)
                  (when format (push (apply #'format format args) shown))
                  (car shown))))
       ,@body)
     (nreverse shown)))

(defun bidi-lsp-tests--settle ()
  "Run the idle update of the current buffer and wait for its answers."
  (bidi-lsp--update (current-buffer))
  (bidi-lsp-tests--wait-for (lambda () (= 0 bidi-lsp--in-flight))))

(defun bidi-lsp-tests--show (buffer)
  "Show BUFFER in the selected window (the batch frame has one)."
  (set-window-buffer (selected-window) buffer)
  (set-buffer buffer))

;; The daemon

(defun bidi-lsp-tests--kill-daemon ()
  "Kill the daemon as a crash would, and wait until the mode has noticed."
  (let ((connection bidi-lsp--connection))
    (should connection)
    (signal-process (jsonrpc--process connection) 'SIGKILL)
    (bidi-lsp-tests--wait-for (lambda () (not (eq bidi-lsp--connection connection))))))

(defun bidi-lsp-tests--visual-options-implemented-p ()
  "Non-nil when the daemon applies `combiningMarks: afterBase' (UAX #9 L3).
Asked on a buffer of its own: the Hebrew letter shin with two marks."
  (with-temp-buffer
    (rename-buffer "bidi-lsp-probe" t)
    (insert "שָׁ")
    (bidi-lsp-mode 1)
    (unwind-protect
        (let ((text (car (bidi-lsp-visual-lines (point-min) (point-max)))))
          (eq (aref text 0) ?ש))
      (bidi-lsp-mode -1))))

(provide 'bidi-lsp-test-support)
;;; bidi-lsp-test-support.el ends here
