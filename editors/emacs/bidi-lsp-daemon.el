;;; bidi-lsp-daemon.el --- The bidi-lsp daemon and the buffers it holds  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 the bidi-lsp authors

;; This file is not part of GNU Emacs.  It is distributed under the same
;; license as bidi-lsp.

;;; Commentary:

;; Part of bidi-lsp.el.  Starts the daemon (one per Emacs) and starts it
;; again, with a growing delay, when it dies; sends requests; converts
;; positions; keeps the daemon's copy of every attached buffer in step
;; with incremental changes, and opens them all again in a new daemon.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'url-util)
(require 'subr-x)
(require 'bidi-lsp-l10n)
(require 'bidi-lsp-documents)

;;;; Customization

(defgroup bidi-lsp nil
  "Right-to-left and mixed-direction text with the bidi-lsp daemon."
  :group 'i18n
  :prefix "bidi-lsp-"
  :link '(url-link "https://github.com/bidi-lsp/bidi-lsp"))

(defcustom bidi-lsp-command '("bidi-lsp")
  "The daemon's command line: the program and its arguments."
  :type '(repeat string))

(defcustom bidi-lsp-strategy "firstStrong"
  "How the daemon finds a paragraph's natural direction."
  :type '(choice (const :tag "First strong character (UAX #9)" "firstStrong")
                 (const :tag "Word-count estimate" "estimate")
                 (const :tag "Any right-to-left character" "anyRTL")))

(defcustom bidi-lsp-rtl-threshold 0.4
  "The share of RTL words that makes a paragraph RTL, for `estimate'."
  :type 'number)

(defcustom bidi-lsp-fallback "previous"
  "The direction of a paragraph with no strong character."
  :type '(choice (const :tag "The previous paragraph's" "previous")
                 (const :tag "The layout direction" "layout")
                 (const "ltr") (const "rtl")))

(defcustom bidi-lsp-paragraphs "line"
  "What a paragraph is for the daemon: a line, or a block between blank lines."
  :type '(choice (const "line") (const "block")))

(defcustom bidi-lsp-layout-direction "ltr"
  "The direction of the user interface."
  :type '(choice (const "ltr") (const "rtl")))

(defcustom bidi-lsp-source-locale "en"
  "The locale whose files translations are compared with.
A locale tag such as \"en\", \"en-US\" or \"fr\" (ar.lproj pairs with
en.lproj); \"\" for only the sources a file holds (XLIFF, .po)."
  :type 'string)

(defcustom bidi-lsp-diagnostics nil
  "Hazard rules to change, as an alist from a rule to a setting.
Rules: `unpaired', `unmatched', `override', `inIdentifier',
`inComment', `inString'.  A setting is t (on), :json-false (off)
or a severity string: \"error\", \"warning\", \"information\", \"hint\"."
  :type '(alist :key-type symbol
                :value-type (choice (const :tag "On" t)
                                    (const :tag "Off" :json-false)
                                    (const "error") (const "warning")
                                    (const "information") (const "hint"))))

(defcustom bidi-lsp-events-buffer-size 0
  "Size of the buffer `*bidi-lsp events*' that logs the messages.
0 logs nothing (the default: documents are sent whole when opened);
nil does not limit it.  Takes effect when the daemon starts."
  :type '(choice (const :tag "Unlimited" nil) integer))

(defcustom bidi-lsp-request-timeout 10
  "Seconds to wait for an answer from the daemon."
  :type 'number)

(defcustom bidi-lsp-restart-delay 0.25
  "Seconds to wait before starting again a daemon that died.
Each further restart in a row waits twice as long, up to 30 seconds;
a daemon that ran for a minute starts the count again."
  :type 'number)

(defcustom bidi-lsp-restart-attempts 5
  "How many times in a row a dying daemon is started again.
After that `bidi-lsp-restart' starts it by hand."
  :type 'integer)

;;;; The connection

(defvar bidi-lsp-mode)
(declare-function bidi-lsp--schedule-update "bidi-lsp-view" (&optional delay))
(declare-function bidi-lsp-mode "bidi-lsp" (&optional arg))

(defvar-local bidi-lsp--uri nil "The URI of the buffer in the daemon.")
(defvar-local bidi-lsp--version nil
  "The version the daemon has, or nil when it does not have the buffer.")

(defvar bidi-lsp--connection nil
  "The connection to the running daemon, or nil.")

(defvar bidi-lsp--buffers (make-hash-table :test #'equal)
  "Attached buffers, by URI: the ones the daemon must have open.")

(defvar bidi-lsp--restart-timer nil "The timer of the next restart, or nil.")
(defvar bidi-lsp--restarts 0 "Restarts in a row of a daemon that keeps dying.")
(defvar bidi-lsp--started-at nil "When the daemon last started (`float-time').")

(defvar bidi-lsp-after-start-hook nil
  "Run when a daemon has started and has every attached buffer open.")

(defclass bidi-lsp-connection (jsonrpc-process-connection)
  ((capabilities :initform nil :accessor bidi-lsp--capabilities))
  :documentation "A connection to the bidi-lsp daemon.")

(cl-defmethod jsonrpc-connection-send ((connection bidi-lsp-connection)
                                       &rest args &key method &allow-other-keys)
  "Send the message ARGS to CONNECTION.
As `jsonrpc-process-connection' does, but the body is copied once
\(a `didOpen' can hold megabytes), and not logged unless asked."
  (when method
    (setq args (plist-put args :method (if (keywordp method)
                                           (substring (symbol-name method) 1)
                                         (symbol-name method)))))
  (let* ((message (cl-list* :jsonrpc "2.0" args))
         (json (json-serialize message :false-object :json-false :null-object nil)))
    (process-send-string (jsonrpc--process connection)
                         (concat "Content-Length: " (number-to-string (string-bytes json))
                                 "\r\n\r\n" json))
    (unless (eql bidi-lsp-events-buffer-size 0)
      (jsonrpc--log-event connection message 'client))))

(defun bidi-lsp--settings ()
  "The daemon's settings, from the customization options."
  (append (list :strategy bidi-lsp-strategy
                :rtlThreshold bidi-lsp-rtl-threshold
                :fallback bidi-lsp-fallback
                :paragraphs bidi-lsp-paragraphs
                :layoutDirection bidi-lsp-layout-direction
                :sourceLocale bidi-lsp-source-locale)
          (when bidi-lsp-diagnostics
            (list :diagnostics
                  (cl-loop for (rule . setting) in bidi-lsp-diagnostics
                           append (list (intern (format ":%s" rule)) setting))))))

(defun bidi-lsp-running-p ()
  "Return non-nil when the daemon is running."
  (and bidi-lsp--connection (jsonrpc-running-p bidi-lsp--connection)))

(defun bidi-lsp--error-text (err)
  "The message of the error ERR, starting with \"bidi-lsp: \" once."
  (let ((text (error-message-string err)))
    (if (string-prefix-p "bidi-lsp: " text) text (concat "bidi-lsp: " text))))

(defun bidi-lsp--make-connection ()
  "Start a daemon process and return its connection, not yet initialized."
  (let* ((name "bidi-lsp")
         (process
          ;; Read the answers as they come, not in adaptive delays.
          (let ((process-adaptive-read-buffering nil))
            (make-process
             :name name :command bidi-lsp-command
             :connection-type 'pipe :coding 'utf-8-emacs-unix :noquery t
             :stderr (get-buffer-create (format "*%s stderr*" name))))))
    (make-instance 'bidi-lsp-connection
                   :name name :process process
                   :events-buffer-scrollback-size bidi-lsp-events-buffer-size
                   :notification-dispatcher #'bidi-lsp--handle-notification
                   :request-dispatcher #'bidi-lsp--handle-request
                   :on-shutdown #'bidi-lsp--on-shutdown)))

(defun bidi-lsp--start ()
  "Start the daemon if it is not running; return the connection.
A new daemon gets every attached buffer again."
  (unless (bidi-lsp-running-p)
    (bidi-lsp--cancel-restart)
    (unless (and bidi-lsp-command (executable-find (car bidi-lsp-command)))
      (user-error "bidi-lsp: Cannot run %S (customize `bidi-lsp-command')"
                  bidi-lsp-command))
    (let* ((connection (bidi-lsp--make-connection))
           (answer
            (condition-case err
                (jsonrpc-request
                 connection :initialize
                 (list :processId (emacs-pid)
                       :clientInfo (list :name "bidi-lsp.el" :version "0.3.0")
                       :rootUri nil
                       :capabilities (list :general (list :positionEncodings ["utf-32"]))
                       :initializationOptions (list :bidi (bidi-lsp--settings)))
                 :timeout bidi-lsp-request-timeout)
              ((error jsonrpc-error)
               (ignore-errors (jsonrpc-shutdown connection t))
               (error "bidi-lsp: The daemon did not start: %s"
                      (or (alist-get 'jsonrpc-error-message (cdr err))
                          (error-message-string err))))))
           (capabilities (plist-get answer :capabilities)))
      (unless (equal (plist-get capabilities :positionEncoding) "utf-32")
        (jsonrpc-shutdown connection t)
        (error "bidi-lsp: The daemon chose %s positions; this package needs utf-32"
               (plist-get capabilities :positionEncoding)))
      (setf (bidi-lsp--capabilities connection) capabilities)
      (setq bidi-lsp--connection connection
            bidi-lsp--started-at (float-time))
      (jsonrpc-notify connection :initialized (make-hash-table))
      (bidi-lsp--reopen-buffers)
      (run-hooks 'bidi-lsp-after-start-hook)))
  bidi-lsp--connection)

(defun bidi-lsp--reopen-buffers ()
  "Open in the daemon every attached buffer it does not have."
  (dolist (buffer (hash-table-values bidi-lsp--buffers))
    (if (buffer-live-p buffer)
        (with-current-buffer buffer
          (unless bidi-lsp--version (bidi-lsp--did-open)))
      (maphash (lambda (uri b) (when (eq b buffer) (remhash uri bidi-lsp--buffers)))
               bidi-lsp--buffers))))

(defun bidi-lsp--forget-versions ()
  "Note that the daemon has none of the attached buffers."
  (dolist (buffer (hash-table-values bidi-lsp--buffers))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer (setq bidi-lsp--version nil)))))

(defun bidi-lsp--stop (connection)
  "Stop the daemon of CONNECTION the LSP way, or kill it."
  (when (jsonrpc-running-p connection)
    (ignore-errors (jsonrpc-request connection :shutdown nil :timeout 2))
    (ignore-errors (jsonrpc-notify connection :exit nil))
    (with-timeout (2 nil)
      (while (jsonrpc-running-p connection)
        (accept-process-output nil 0.05))))
  (jsonrpc-shutdown connection t))

(defun bidi-lsp-shutdown ()
  "Shut the daemon down and turn `bidi-lsp-mode' off everywhere."
  (interactive)
  (bidi-lsp--cancel-restart)
  (dolist (buffer (hash-table-values bidi-lsp--buffers))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer (bidi-lsp-mode -1))))
  (clrhash bidi-lsp--buffers)
  (when-let ((connection bidi-lsp--connection))
    (setq bidi-lsp--connection nil)
    (bidi-lsp--stop connection)))

(defun bidi-lsp-restart ()
  "Start a new daemon, and open the attached buffers in it again."
  (interactive)
  (bidi-lsp--cancel-restart)
  (when-let ((connection bidi-lsp--connection))
    (setq bidi-lsp--connection nil)
    (bidi-lsp--forget-versions)
    (bidi-lsp--stop connection))
  (setq bidi-lsp--restarts 0)
  (bidi-lsp--start)
  (message "bidi-lsp: the daemon runs, with %d buffer%s"
           (hash-table-count bidi-lsp--buffers)
           (if (= (hash-table-count bidi-lsp--buffers) 1) "" "s")))

;;;; Restarts

(defun bidi-lsp--on-shutdown (connection)
  "Forget CONNECTION when its process dies; restart it if it was not asked to."
  (when (eq connection bidi-lsp--connection)
    (setq bidi-lsp--connection nil)
    (bidi-lsp--forget-versions)
    (when (> (hash-table-count bidi-lsp--buffers) 0)
      (bidi-lsp--schedule-restart))))

(defun bidi-lsp--cancel-restart ()
  "Cancel the restart that is due, if any."
  (when (timerp bidi-lsp--restart-timer)
    (cancel-timer bidi-lsp--restart-timer))
  (setq bidi-lsp--restart-timer nil))

(defun bidi-lsp--schedule-restart ()
  "Start the daemon again after a delay that grows with each restart in a row."
  (when (and bidi-lsp--started-at (> (- (float-time) bidi-lsp--started-at) 60))
    (setq bidi-lsp--restarts 0))
  (bidi-lsp--cancel-restart)
  (if (>= bidi-lsp--restarts bidi-lsp-restart-attempts)
      (message "bidi-lsp: the daemon died %d times in a row; M-x bidi-lsp-restart to start it"
               bidi-lsp--restarts)
    (let ((delay (min 30 (* bidi-lsp-restart-delay (expt 2 bidi-lsp--restarts)))))
      (cl-incf bidi-lsp--restarts)
      (message "bidi-lsp: the daemon died; starting it again in %.1f s" delay)
      (setq bidi-lsp--restart-timer (run-at-time delay nil #'bidi-lsp--restart-now)))))

(defun bidi-lsp--restart-now ()
  "Start the daemon again, if buffers still need it."
  (setq bidi-lsp--restart-timer nil)
  (when (and (not (bidi-lsp-running-p)) (> (hash-table-count bidi-lsp--buffers) 0))
    (condition-case err
        (bidi-lsp--start)
      (error
       (message "%s" (bidi-lsp--error-text err))
       (bidi-lsp--schedule-restart)))))

;;;; Messages from the daemon

(defun bidi-lsp--handle-request (_connection method _params)
  "Refuse requests from the daemon (METHOD): none is expected."
  (jsonrpc-error :code -32601 :message (format "%s is not supported" method)))

(defvar bidi-lsp-notification-functions nil
  "Functions called with METHOD and PARAMS for each notification of the daemon.")

(defun bidi-lsp--handle-notification (_connection method params)
  "Handle the notification METHOD with PARAMS from the daemon."
  (pcase method
    ((or 'window/logMessage 'window/showMessage)
     (when (<= (or (plist-get params :type) 4) 2)
       (display-warning 'bidi-lsp (plist-get params :message) :warning))))
  (run-hook-with-args 'bidi-lsp-notification-functions method params))

;;;; Requests

(defun bidi-lsp-request (method params)
  "Send the request METHOD with PARAMS to the daemon and return its result.
Signals `user-error' with the daemon's message on an error answer."
  (condition-case err
      ;; Large answers are read in large pieces.
      (let ((read-process-output-max (max read-process-output-max (* 1024 1024))))
        (jsonrpc-request (bidi-lsp--start) method params :timeout bidi-lsp-request-timeout))
    (jsonrpc-error
     (user-error "bidi-lsp: %s: %s" method
                 (or (alist-get 'jsonrpc-error-message (cdr err)) err)))))

(defun bidi-lsp--async-request (method params on-result &optional on-failure)
  "Send the request METHOD with PARAMS; call ON-RESULT with its result later.
On an error answer, a timeout or a dying daemon, call ON-FAILURE
\(if given) with no argument instead."
  (let ((failed (lambda (&rest _) (when on-failure (funcall on-failure)))))
    (jsonrpc-async-request bidi-lsp--connection method params
                           :success-fn on-result :error-fn failed
                           :timeout bidi-lsp-request-timeout :timeout-fn failed)))

;;;; Positions

;; The daemon negotiates UTF-32 with this package: an LSP `character' is
;; a count of characters from the start of the line, as in Emacs.  The
;; daemon's copy of a buffer is its whole (widened) text, so LSP line N
;; is Emacs line N + 1.

(defun bidi-lsp--position (pos)
  "The LSP Position of buffer position POS."
  (save-excursion
    (save-restriction
      (widen)
      (goto-char pos)
      (forward-line 0)
      (list :line (1- (line-number-at-pos pos t)) :character (- pos (point))))))

(defun bidi-lsp--range (beg end)
  "The LSP Range from BEG to END."
  (list :start (bidi-lsp--position beg) :end (bidi-lsp--position end)))

(defun bidi-lsp--points (positions)
  "The buffer positions of the LSP POSITIONS (a list of plists), in order.
Each is clamped to its line.  One pass over the buffer for them all."
  (let ((result (make-vector (length positions) nil))
        (order (sort (cl-loop for position in positions for index from 0
                              collect (cons (plist-get position :line) index))
                     (lambda (a b) (< (car a) (car b)))))
        (positions (vconcat positions)))
    (save-excursion
      (save-restriction
        (widen)
        (goto-char (point-min))
        (let ((line 0) (past-end nil))
          (dolist (entry order)
            (unless past-end
              (setq past-end (> (forward-line (- (car entry) line)) 0)
                    line (car entry)))
            (aset result (cdr entry)
                  (if past-end
                      (point-max)
                    (min (+ (point) (plist-get (aref positions (cdr entry)) :character))
                         (line-end-position))))))))
    (append result nil)))

(defun bidi-lsp--point (position)
  "The buffer position of the LSP POSITION (a plist), clamped to its line."
  (car (bidi-lsp--points (list position))))

;;;; Documents

(defvar-local bidi-lsp--before-change nil
  "(BEG END RANGE) recorded before a change, RANGE in LSP terms.")
(defvar-local bidi-lsp--has-cr nil
  "Non-nil when the buffer holds a carriage return.
The daemon ends a line at a CR as well as at a LF, so line numbers
may differ from Emacs's: changes are then sent as the whole text.")

(defun bidi-lsp--language-id ()
  "The LSP languageId of the buffer.
Its localization, Markdown or subtitle format, else its major mode's."
  (or (bidi-lsp-l10n-language-id)
      (bidi-lsp-document-language-id)
      (let ((name (replace-regexp-in-string "\\(-ts\\)?-mode\\'" ""
                                            (symbol-name major-mode))))
        (pcase name
          ((or "text" "fundamental" "") "plaintext")
          ((or "sh" "bash") "shellscript")
          ("c++" "cpp")
          ((or "js" "js2" "javascript") "javascript")
          ("js-json" "json")
          ("objc" "objective-c")
          ("nxml" "xml")
          (_ name)))))

(defun bidi-lsp--make-uri ()
  "A URI for the current buffer."
  (if buffer-file-name
      (concat "file://" (url-hexify-string (expand-file-name buffer-file-name)
                                           url-path-allowed-chars))
    (format "untitled:%s-%s" (url-hexify-string (buffer-name))
            (sxhash-eq (current-buffer)))))

(defun bidi-lsp--text ()
  "The whole text of the buffer, without properties."
  (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max))))

(defun bidi-lsp--did-open ()
  "Open the buffer in the daemon, unless it has it already."
  (let ((connection (bidi-lsp--start)))
    (unless (and bidi-lsp--version bidi-lsp--uri
                 (eq (gethash bidi-lsp--uri bidi-lsp--buffers) (current-buffer)))
      (setq bidi-lsp--uri (or bidi-lsp--uri (bidi-lsp--make-uri))
            bidi-lsp--version 1)
      (puthash bidi-lsp--uri (current-buffer) bidi-lsp--buffers)
      (setq bidi-lsp--has-cr (save-excursion
                               (save-restriction
                                 (widen)
                                 (goto-char (point-min))
                                 (search-forward "\r" nil t))))
      (jsonrpc-notify connection :textDocument/didOpen
                      (list :textDocument
                            (list :uri bidi-lsp--uri :languageId (bidi-lsp--language-id)
                                  :version 1 :text (bidi-lsp--text)))))))

(defun bidi-lsp--did-close ()
  "Close the buffer in the daemon."
  (when bidi-lsp--uri
    (remhash bidi-lsp--uri bidi-lsp--buffers)
    (when (and bidi-lsp--version (bidi-lsp-running-p))
      (jsonrpc-notify bidi-lsp--connection :textDocument/didClose
                      (list :textDocument (list :uri bidi-lsp--uri))))
    (setq bidi-lsp--version nil
          bidi-lsp--uri nil)))

(defun bidi-lsp--ensure ()
  "Make sure the daemon is running and has the buffer; return its URI."
  (unless bidi-lsp-mode
    (user-error "bidi-lsp: `bidi-lsp-mode' is off in this buffer"))
  (unless (and bidi-lsp--version (bidi-lsp-running-p))
    (bidi-lsp--did-open))
  bidi-lsp--uri)

(defun bidi-lsp--params (&rest params)
  "The buffer's textDocument and PARAMS, for a request."
  (append (list :textDocument (list :uri (bidi-lsp--ensure))) params))

(defun bidi-lsp--send-change (changes)
  "Send content edits to the daemon as a new version of the buffer.
CHANGES is the list of LSP content changes."
  (when (and bidi-lsp--version (bidi-lsp-running-p))
    (cl-incf bidi-lsp--version)
    (jsonrpc-notify bidi-lsp--connection :textDocument/didChange
                    (list :textDocument (list :uri bidi-lsp--uri :version bidi-lsp--version)
                          :contentChanges (vconcat changes)))))

(defun bidi-lsp-resync ()
  "Send the whole text of the buffer to the daemon again."
  (interactive)
  (bidi-lsp--send-change (list (list :text (bidi-lsp--text)))))

(defun bidi-lsp--before-change-function (beg end)
  "Record the LSP range of the text from BEG to END before an edit."
  (when bidi-lsp--version
    (setq bidi-lsp--before-change (list beg end (bidi-lsp--range beg end)))))

(defun bidi-lsp--after-change-function (beg end old-length)
  "Send the change from BEG to END (OLD-LENGTH long before) to the daemon."
  (when bidi-lsp--version
    (let ((before bidi-lsp--before-change)
          (text (buffer-substring-no-properties beg end)))
      (setq bidi-lsp--before-change nil)
      (when (string-search "\r" text)
        (setq bidi-lsp--has-cr t))
      (if (and before (not bidi-lsp--has-cr)
               (= (nth 0 before) beg) (= (nth 1 before) (+ beg old-length)))
          (bidi-lsp--send-change
           (list (list :range (nth 2 before) :text text)))
        ;; The hooks disagree about the changed region, or lines may not
        ;; be the same: send everything.
        (bidi-lsp-resync))))
  (bidi-lsp--schedule-update))

;;;; Applying edits

(defun bidi-lsp--apply-edits (edits)
  "Apply the LSP TextEdits EDITS (a vector or list) as one change."
  (let* ((edits (append edits nil))
         (points (bidi-lsp--points
                  (cl-loop for edit in edits for range = (plist-get edit :range)
                           collect (plist-get range :start) collect (plist-get range :end))))
         ;; From the last to the first; of insertions at one position the
         ;; later ones first, so that the texts appear in the edits' order
         ;; (as LSP says).
         (edits (sort (cl-loop for edit in edits for (beg end) on points by #'cddr for index from 0
                               collect (list beg end (plist-get edit :newText) index))
                      (lambda (a b) (or (> (car a) (car b))
                                        (and (= (car a) (car b)) (> (nth 3 a) (nth 3 b))))))))
    (when edits
      (barf-if-buffer-read-only)
      (save-excursion
        (save-restriction
          (widen)
          (atomic-change-group
            (dolist (edit edits)
              (goto-char (nth 0 edit))
              (delete-region (nth 0 edit) (nth 1 edit))
              (insert (nth 2 edit)))))))
    (length edits)))

(defun bidi-lsp--apply-workspace-edit (edit)
  "Apply the WorkspaceEdit EDIT to the attached buffers it names."
  (let ((changes (plist-get edit :changes)))
    (cl-loop for (key edits) on changes by #'cddr
             for uri = (substring (symbol-name key) 1)
             for buffer = (gethash uri bidi-lsp--buffers)
             do (if (buffer-live-p buffer)
                    (with-current-buffer buffer (bidi-lsp--apply-edits edits))
                  (user-error "bidi-lsp: An edit for a buffer that is not open: %s" uri)))
    (cl-loop for change across (or (plist-get edit :documentChanges) [])
             for uri = (plist-get (plist-get change :textDocument) :uri)
             for buffer = (gethash uri bidi-lsp--buffers)
             when (buffer-live-p buffer)
             do (with-current-buffer buffer
                  (bidi-lsp--apply-edits (plist-get change :edits))))))

(provide 'bidi-lsp-daemon)
;;; bidi-lsp-daemon.el ends here
