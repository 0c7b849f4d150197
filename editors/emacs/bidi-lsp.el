;;; bidi-lsp.el --- RTL and mixed-direction text  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 the bidi-lsp authors

;; Author: the bidi-lsp authors
;; Maintainer: the bidi-lsp authors
;; Version: 0.1.0
;; URL: https://github.com/bidi-lsp/bidi-lsp
;; Keywords: i18n, languages, convenience
;; Package-Requires: ((emacs "28.1"))

;; This file is not part of GNU Emacs.  It is distributed under the same
;; license as bidi-lsp.

;;; Commentary:

;; `bidi-lsp-mode' connects a buffer to the bidi-lsp daemon, which knows
;; about right-to-left and mixed-direction text (Arabic, Hebrew, ...
;; mixed with English).  Emacs has its own bidi display engine, so this
;; package does not reorder anything itself.  It uses the daemon to:
;;
;; - set `bidi-paragraph-direction' from the text's natural direction,
;;   found with the daemon's strategy (`bidi-lsp-auto-direction');
;; - insert LRM/RLM marks and isolates where they are needed
;;   (`bidi-lsp-make-rtl', `bidi-lsp-isolate-region',
;;   `bidi-lsp-isolate-placeholders', `bidi-lsp-isolate-runs',
;;   `bidi-lsp-strip', `bidi-lsp-insert-marks' for any mode);
;; - show the visual order of a line as plain left-to-right text
;;   (`bidi-lsp-show-visual-order'), to check what a line really shows;
;; - report Trojan Source hazards with Flymake, with quick fixes
;;   (`bidi-lsp-fix-at-point', `bidi-lsp-fix-all');
;; - show the invisible bidi controls by name (`bidi-lsp-inlay-hints').
;;
;; Usage:
;;
;;   (require 'bidi-lsp)
;;   (add-hook 'text-mode-hook #'bidi-lsp-mode)
;;   (define-key bidi-lsp-mode-map (kbd "C-c b") bidi-lsp-command-map)
;;
;; One daemon serves the whole Emacs; it speaks JSON-RPC through the
;; built-in `jsonrpc' library.  Positions are negotiated in UTF-32, so an
;; LSP character offset is an Emacs column in characters.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'flymake)
(require 'url-util)
(require 'subr-x)

;;;; Customization

(defgroup bidi-lsp nil
  "Right-to-left and mixed-direction text with the bidi-lsp daemon."
  :group 'i18n
  :prefix "bidi-lsp-"
  :link '(url-link "https://github.com/bidi-lsp/bidi-lsp"))

(defcustom bidi-lsp-command '("bidi-lsp")
  "The daemon's command line: the program and its arguments."
  :type '(repeat string))

(defcustom bidi-lsp-auto-direction 'document
  "How `bidi-lsp-mode' sets the paragraph direction of a buffer.
`document': `bidi-paragraph-direction' is the natural direction of
most lines (found with `bidi-lsp-strategy'), kept up to date as
the text changes.  `first': the direction of the first line that
has a strong character.  `line': every line is its own paragraph
and Emacs finds each line's direction by itself (UAX #9 rules P2
and P3); use `bidi-lsp-mark-directions' to make lines whose
direction comes from another strategy display so.  nil: leave the
direction alone."
  :type '(choice (const :tag "Most lines" document)
                 (const :tag "First line with a strong character" first)
                 (const :tag "Each line by itself" line)
                 (const :tag "Do not change" nil)))

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

(defcustom bidi-lsp-flymake t
  "Whether `bidi-lsp-mode' turns on `flymake-mode' for the hazard diagnostics."
  :type 'boolean)

(defcustom bidi-lsp-inlay-hints t
  "Whether to show the invisible bidi controls by name, e.g. <RLM>."
  :type 'boolean)

(defcustom bidi-lsp-idle-delay 0.5
  "Idle seconds after a change before the direction and hints are updated."
  :type 'number)

(defcustom bidi-lsp-events-buffer-size 0
  "Size of the buffer `*bidi-lsp events*' that logs the messages.
0 logs nothing (the default: documents are sent whole when opened);
nil does not limit it.  Takes effect when the daemon starts."
  :type '(choice (const :tag "Unlimited" nil) integer))

(defcustom bidi-lsp-request-timeout 10
  "Seconds to wait for an answer from the daemon."
  :type 'number)

(defface bidi-lsp-hint '((t :inherit shadow :height 0.8))
  "Face of the names shown for invisible bidi controls.")

;;;; The daemon

(defvar bidi-lsp-mode)
(defvar-local bidi-lsp--uri nil "The URI of the buffer in the daemon.")
(defvar-local bidi-lsp--version nil
  "The version the daemon has, or nil when closed.")

(defvar bidi-lsp--connection nil
  "The connection to the running daemon, or nil.")

(defvar bidi-lsp--buffers (make-hash-table :test #'equal)
  "Attached buffers, by URI.")

(defclass bidi-lsp-connection (jsonrpc-process-connection)
  ((capabilities :initform nil :accessor bidi-lsp--capabilities))
  :documentation "A connection to the bidi-lsp daemon.")

(defun bidi-lsp--settings ()
  "The daemon's settings, from the customization options."
  (append (list :strategy bidi-lsp-strategy
                :rtlThreshold bidi-lsp-rtl-threshold
                :fallback bidi-lsp-fallback
                :paragraphs bidi-lsp-paragraphs
                :layoutDirection bidi-lsp-layout-direction)
          (when bidi-lsp-diagnostics
            (list :diagnostics
                  (cl-loop for (rule . setting) in bidi-lsp-diagnostics
                           append (list (intern (format ":%s" rule)) setting))))))

(defun bidi-lsp-running-p ()
  "Non-nil when the daemon runs."
  (and bidi-lsp--connection (jsonrpc-running-p bidi-lsp--connection)))

(defun bidi-lsp--start ()
  "Start the daemon if it is not running; return the connection."
  (unless (bidi-lsp-running-p)
    (unless (and bidi-lsp-command (executable-find (car bidi-lsp-command)))
      (user-error "bidi-lsp: cannot run %S (customize `bidi-lsp-command')"
                  bidi-lsp-command))
    (let* ((name "bidi-lsp")
           (process
            (make-process
             :name name :command bidi-lsp-command
             :connection-type 'pipe :coding 'utf-8-emacs-unix :noquery t
             :stderr (get-buffer-create (format "*%s stderr*" name))))
           (connection
            (make-instance 'bidi-lsp-connection
                           :name name :process process
                           :events-buffer-scrollback-size bidi-lsp-events-buffer-size
                           :notification-dispatcher #'bidi-lsp--handle-notification
                           :request-dispatcher #'bidi-lsp--handle-request
                           :on-shutdown #'bidi-lsp--on-shutdown))
           (answer
            (jsonrpc-request
             connection :initialize
             (list :processId (emacs-pid)
                   :clientInfo (list :name "bidi-lsp.el" :version "0.1.0")
                   :rootUri nil
                   :capabilities
                   (list :general (list :positionEncodings ["utf-32"]))
                   :initializationOptions (list :bidi (bidi-lsp--settings)))
             :timeout bidi-lsp-request-timeout))
           (capabilities (plist-get answer :capabilities)))
      (unless (equal (plist-get capabilities :positionEncoding) "utf-32")
        (jsonrpc-shutdown connection t)
        (error "bidi-lsp: the daemon chose %s positions; this package needs utf-32"
               (plist-get capabilities :positionEncoding)))
      (setf (bidi-lsp--capabilities connection) capabilities)
      (setq bidi-lsp--connection connection)
      (jsonrpc-notify connection :initialized (make-hash-table))))
  bidi-lsp--connection)

(defun bidi-lsp-shutdown ()
  "Shut the daemon down and turn `bidi-lsp-mode' off everywhere."
  (interactive)
  (dolist (buffer (hash-table-values bidi-lsp--buffers))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer (bidi-lsp-mode -1))))
  (when-let ((connection bidi-lsp--connection))
    (setq bidi-lsp--connection nil)
    (when (jsonrpc-running-p connection)
      (ignore-errors (jsonrpc-request connection :shutdown nil :timeout 2))
      (ignore-errors (jsonrpc-notify connection :exit nil))
      (with-timeout (2 nil)
        (while (jsonrpc-running-p connection)
          (accept-process-output nil 0.05))))
    (jsonrpc-shutdown connection t)))

(defun bidi-lsp--on-shutdown (connection)
  "Forget CONNECTION when its process dies."
  (when (eq connection bidi-lsp--connection)
    (setq bidi-lsp--connection nil)
    (dolist (buffer (hash-table-values bidi-lsp--buffers))
      (when (buffer-live-p buffer)
        (with-current-buffer buffer
          (setq bidi-lsp--version nil))))))

(defun bidi-lsp--handle-request (_connection method _params)
  "Refuse requests from the daemon (METHOD): none is expected."
  (jsonrpc-error :code -32601 :message (format "%s is not supported" method)))

(defun bidi-lsp--handle-notification (_connection method params)
  "Handle the notification METHOD with PARAMS from the daemon."
  (pcase method
    ('textDocument/publishDiagnostics (bidi-lsp--publish-diagnostics params))
    ((or 'window/logMessage 'window/showMessage)
     (when (<= (or (plist-get params :type) 4) 2)
       (display-warning 'bidi-lsp (plist-get params :message) :warning)))))

(defun bidi-lsp-request (method params)
  "Send the request METHOD with PARAMS to the daemon and return its result.
Signals `user-error' with the daemon's message on an error answer."
  (condition-case err
      (jsonrpc-request (bidi-lsp--start) method params :timeout bidi-lsp-request-timeout)
    (jsonrpc-error
     (user-error "bidi-lsp: %s: %s" method
                 (or (alist-get 'jsonrpc-error-message (cdr err)) err)))))

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

(defun bidi-lsp--point (position)
  "The buffer position of the LSP POSITION (a plist), clamped to its line."
  (save-excursion
    (save-restriction
      (widen)
      (goto-char (point-min))
      (if (> (forward-line (plist-get position :line)) 0)
          (point-max)
        (min (+ (point) (plist-get position :character)) (line-end-position))))))

(defun bidi-lsp--range (beg end)
  "The LSP Range from BEG to END."
  (list :start (bidi-lsp--position beg) :end (bidi-lsp--position end)))

(defun bidi-lsp--lines-range (beg end)
  "The LSP Range of the whole lines from the one of BEG to the one of END.
When END is at the start of a line after BEG's, that line is not included."
  (save-excursion
    (let ((first (progn (goto-char beg) (line-beginning-position)))
          (last (progn (goto-char end)
                       (if (and (bolp) (> end beg)) (point) (line-beginning-position 2)))))
      (list :start (bidi-lsp--position first) :end (bidi-lsp--position last)))))

(defun bidi-lsp--region-or-line ()
  "The active region's bounds, else the current line's, as a list (BEG END)."
  (if (use-region-p)
      (list (region-beginning) (region-end))
    (list (line-beginning-position) (line-end-position))))

;;;; Documents

(defvar-local bidi-lsp--before-change nil
  "(BEG END RANGE) recorded before a change, RANGE in LSP terms.")
(defvar-local bidi-lsp--timer nil "The idle timer of the buffer's updates.")
(defvar-local bidi-lsp--has-cr nil
  "Non-nil when the buffer holds a carriage return.
The daemon ends a line at a CR as well as at a LF, so line numbers
may differ from Emacs's: changes are then sent as the whole text.")

(defun bidi-lsp--language-id ()
  "The LSP languageId of the buffer, from its major mode."
  (let ((name (replace-regexp-in-string "\\(-ts\\)?-mode\\'" ""
                                        (symbol-name major-mode))))
    (pcase name
      ((or "text" "fundamental" "") "plaintext")
      ((or "sh" "bash") "shellscript")
      ("c++" "cpp")
      ((or "js" "js2") "javascript")
      ("objc" "objective-c")
      (_ name))))

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
  "Open the buffer in the daemon."
  (let ((connection (bidi-lsp--start)))
    (setq bidi-lsp--uri (bidi-lsp--make-uri)
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
                                :version 1 :text (bidi-lsp--text))))))

(defun bidi-lsp--did-close ()
  "Close the buffer in the daemon."
  (when bidi-lsp--uri
    (remhash bidi-lsp--uri bidi-lsp--buffers)
    (when (and bidi-lsp--version (bidi-lsp-running-p))
      (jsonrpc-notify bidi-lsp--connection :textDocument/didClose
                      (list :textDocument (list :uri bidi-lsp--uri))))
    (setq bidi-lsp--version nil)))

(defun bidi-lsp--ensure ()
  "Make sure the daemon runs and has the buffer; return its URI."
  (unless bidi-lsp-mode
    (user-error "bidi-lsp: `bidi-lsp-mode' is off in this buffer"))
  (unless (and bidi-lsp--version (bidi-lsp-running-p))
    (bidi-lsp--did-open))
  bidi-lsp--uri)

(defun bidi-lsp--send-change (changes)
  "Send the content CHANGES (a list) as a new version."
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
  "Record the LSP range of the text from BEG to END before it changes."
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
        (bidi-lsp-resync)))
    (bidi-lsp--schedule-update)))

;;;; The bidi requests

(defun bidi-lsp--params (&rest params)
  "The buffer's textDocument and PARAMS, for a request."
  (append (list :textDocument (list :uri (bidi-lsp--ensure))) params))

(defun bidi-lsp-paragraphs (beg end)
  "The paragraphs of the lines from BEG to END, with their natural direction.
A list of plists (:line :start :end :direction :basis :strongCharacter)."
  (append (plist-get (bidi-lsp-request :bidi/naturalDirection
                                       (bidi-lsp--params :range (bidi-lsp--lines-range beg end)))
                     :paragraphs)
          nil))

(defun bidi-lsp--describe-paragraph (paragraph)
  "A line of text about PARAGRAPH's direction."
  (let ((strong (plist-get paragraph :strongCharacter)))
    (format "Line %d: %s (%s%s)" (1+ (plist-get paragraph :line))
            (plist-get paragraph :direction) (plist-get paragraph :basis)
            (if strong
                (format ", first strong character at %d:%d"
                        (1+ (plist-get strong :line)) (1+ (plist-get strong :character)))
              ""))))

(defun bidi-lsp-show-direction (beg end)
  "Show the natural direction of the lines from BEG to END and its basis.
Interactively, the lines of the region, or the current line."
  (interactive (bidi-lsp--region-or-line))
  (let ((text (mapconcat #'bidi-lsp--describe-paragraph (bidi-lsp-paragraphs beg end) "\n")))
    (message "%s" text)
    text))

(defun bidi-lsp-document-direction ()
  "The natural direction of the buffer, `left-to-right' or `right-to-left'.
With `bidi-lsp-auto-direction' set to `first', the direction of the
first line that has a strong character; else that of most such
lines (the first one's on a tie).  nil when no line has one."
  (let ((counts (list 0 0)) first)
    (cl-loop for paragraph in (save-restriction
                                (widen) (bidi-lsp-paragraphs (point-min) (point-max)))
             unless (equal (plist-get paragraph :basis) "fallback")
             do (let ((rtl (equal (plist-get paragraph :direction) "rtl")))
                  (unless first (setq first (if rtl 'right-to-left 'left-to-right)))
                  (cl-incf (nth (if rtl 1 0) counts)))
             until (and first (eq bidi-lsp-auto-direction 'first)))
    (cond ((or (eq bidi-lsp-auto-direction 'first) (= (nth 0 counts) (nth 1 counts))) first)
          ((> (nth 1 counts) (nth 0 counts)) 'right-to-left)
          (t 'left-to-right))))

(defun bidi-lsp-update-direction ()
  "Set the paragraph direction of the buffer as `bidi-lsp-auto-direction' says."
  (interactive)
  (pcase bidi-lsp-auto-direction
    ('line
     (setq-local bidi-paragraph-direction nil
                 bidi-paragraph-start-re "^"
                 bidi-paragraph-separate-re "^"))
    ((or 'document 'first)
     (let ((direction (bidi-lsp-document-direction)))
       (when direction
         (setq-local bidi-paragraph-direction direction))))))

(defun bidi-lsp-visual-lines (beg end)
  "The lines from BEG to END in visual order, one string per paragraph."
  (mapcar (lambda (paragraph)
            (mapconcat (lambda (line) (plist-get line :visualText))
                       (plist-get paragraph :lines) ""))
          (plist-get (bidi-lsp-request :bidi/visualOrder
                                       (bidi-lsp--params :range (bidi-lsp--lines-range beg end)
                                                         :include ["visualText"]))
                     :paragraphs)))

(defconst bidi-lsp--visual-buffer "*bidi-lsp visual*"
  "The buffer that shows lines in visual order.")

(defun bidi-lsp-show-visual-order (beg end &optional in-buffer)
  "Show the lines from BEG to END in visual order, as they display.
One line goes to the echo area, more to the buffer `*bidi-lsp
visual*', where Emacs does not reorder them again.  With a prefix
argument (IN-BUFFER), always use the buffer."
  (interactive (append (bidi-lsp--region-or-line) (list current-prefix-arg)))
  (let ((lines (bidi-lsp-visual-lines beg end)))
    (if (and (= (length lines) 1) (not in-buffer))
        ;; LEFT-TO-RIGHT OVERRIDE: the echo area shows the string as it is.
        (message "%s" (concat "\u202d" (car lines) "\u202c"))
      (with-current-buffer (get-buffer-create bidi-lsp--visual-buffer)
        (let ((inhibit-read-only t))
          (erase-buffer)
          (setq bidi-display-reordering nil)
          (insert (mapconcat #'identity lines "\n") "\n")
          (goto-char (point-min))
          (special-mode)
          (setq bidi-display-reordering nil))
        (display-buffer (current-buffer))))
    lines))

(defun bidi-lsp-describe-line (&optional pos)
  "Show the daemon's description of the line at POS (default: point).
Its direction, alignment, visual order and bidi controls."
  (interactive)
  (let* ((answer (bidi-lsp-request :textDocument/hover
                                   (bidi-lsp--params :position (bidi-lsp--position (or pos (point))))))
         (text (plist-get (plist-get answer :contents) :value)))
    (when (called-interactively-p 'interactive)
      (display-message-or-buffer text "*bidi-lsp line*"))
    text))

;;;; Applying edits

(defun bidi-lsp--apply-edits (edits)
  "Apply the LSP TextEdits EDITS (a vector or list) as one change."
  (let ((edits (sort (mapcar (lambda (edit)
                               (let ((range (plist-get edit :range)))
                                 (list (bidi-lsp--point (plist-get range :start))
                                       (bidi-lsp--point (plist-get range :end))
                                       (plist-get edit :newText))))
                             edits)
                     (lambda (a b) (> (car a) (car b))))))
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
                  (user-error "bidi-lsp: an edit for a buffer that is not open: %s" uri)))
    (cl-loop for change across (or (plist-get edit :documentChanges) [])
             for uri = (plist-get (plist-get change :textDocument) :uri)
             for buffer = (gethash uri bidi-lsp--buffers)
             when (buffer-live-p buffer)
             do (with-current-buffer buffer
                  (bidi-lsp--apply-edits (plist-get change :edits))))))

;;;; Inserting marks

(defconst bidi-lsp--modes
  '(("direction" . "direction") ("isolate" . "isolate") ("placeholders" . "style")
    ("runs" . nil) ("strip" . "only"))
  "The insertMarks modes and the name of each one's option.")

(defconst bidi-lsp--mode-values
  '(("direction" "rtl" "ltr") ("isolate" "auto" "ltr" "rtl")
    ("placeholders" "isolate" "marks") ("strip" "all" "unpaired"))
  "The values of each insertMarks mode's option.")

(defun bidi-lsp-insert-marks (mode beg end &rest options)
  "Insert the bidi marks of MODE between BEG and END, as the daemon says.
MODE is \"direction\", \"isolate\", \"placeholders\", \"runs\" or
\"strip\"; OPTIONS is a plist of the request's other fields, such as
\(:direction \"rtl\").  The range is the lines from BEG to END, or
exactly BEG to END for \"isolate\".  Returns the number of edits."
  (interactive
   (let* ((mode (completing-read "Mode: " (mapcar #'car bidi-lsp--modes) nil t))
          (option (cdr (assoc mode bidi-lsp--modes)))
          (values (cdr (assoc mode bidi-lsp--mode-values))))
     (append (list mode) (bidi-lsp--region-or-line)
             (when option
               (list (intern (concat ":" option))
                     (completing-read (format "%s: " option) values nil t nil nil
                                      (car values)))))))
  (let* ((range (if (equal mode "isolate")
                    (bidi-lsp--range beg end)
                  (bidi-lsp--lines-range beg end)))
         (answer (bidi-lsp-request :bidi/insertMarks
                                   (apply #'bidi-lsp--params :mode mode :range range options)))
         (count (bidi-lsp--apply-edits (plist-get answer :edits))))
    (when (called-interactively-p 'interactive)
      (message "bidi-lsp: %s: %d edit%s" mode count (if (= count 1) "" "s")))
    count))

(defun bidi-lsp-make-rtl (beg end)
  "Make the lines from BEG to END right-to-left paragraphs.
Inserts RLM where needed."
  (interactive (bidi-lsp--region-or-line))
  (bidi-lsp-insert-marks "direction" beg end :direction "rtl"))

(defun bidi-lsp-make-ltr (beg end)
  "Make the lines from BEG to END left-to-right paragraphs.
Inserts LRM where needed."
  (interactive (bidi-lsp--region-or-line))
  (bidi-lsp-insert-marks "direction" beg end :direction "ltr"))

(defun bidi-lsp-isolate-region (beg end &optional direction)
  "Wrap the text from BEG to END (within one line) in an isolate.
DIRECTION is \"auto\" (FSI, the default), \"ltr\" (LRI) or \"rtl\" (RLI);
with a prefix argument, ask for it."
  (interactive
   (append (if (use-region-p) (list (region-beginning) (region-end))
             (user-error "bidi-lsp: select the text to isolate"))
           (list (if current-prefix-arg
                     (completing-read "Isolate: " '("auto" "ltr" "rtl") nil t)
                   "auto"))))
  (bidi-lsp-insert-marks "isolate" beg end :isolate (or direction "auto")))

(defun bidi-lsp-isolate-placeholders (beg end)
  "Isolate the format placeholders of the lines from BEG to END.
Wraps every placeholder (%@, %1$s, {0}, ${name}, ...) in FSI...PDI."
  (interactive (bidi-lsp--region-or-line))
  (bidi-lsp-insert-marks "placeholders" beg end :style "isolate"))

(defun bidi-lsp-mark-placeholders (beg end)
  "Mark the format placeholders of the lines from BEG to END.
Puts the mark of the line's direction (LRM or RLM) after each."
  (interactive (bidi-lsp--region-or-line))
  (bidi-lsp-insert-marks "placeholders" beg end :style "marks"))

(defun bidi-lsp-isolate-runs (beg end)
  "Isolate the opposite-direction runs of the lines from BEG to END."
  (interactive (bidi-lsp--region-or-line))
  (bidi-lsp-insert-marks "runs" beg end))

(defun bidi-lsp-strip (beg end &optional all)
  "Remove the unpaired bidi controls of the lines from BEG to END.
With ALL (interactively, a prefix argument), remove every bidi
control.  Interactively, the region, else the whole buffer."
  (interactive (append (if (use-region-p) (list (region-beginning) (region-end))
                         (list (point-min) (point-max)))
                       (list current-prefix-arg)))
  (bidi-lsp-insert-marks "strip" beg end :only (if all "all" "unpaired")))

(defun bidi-lsp-mark-directions (beg end)
  "Make each line from BEG to END show in its natural direction.
Inserts LRM or RLM at the start of the lines whose natural direction
\(with `bidi-lsp-strategy') differs from what Emacs finds by itself.
Use it with `bidi-lsp-auto-direction' set to `line'.  Interactively,
the region, else the whole buffer."
  (interactive (if (use-region-p) (list (region-beginning) (region-end))
                 (list (point-min) (point-max))))
  (let ((count 0))
    ;; From the last line up, so that earlier positions stay valid.
    (dolist (paragraph (reverse (bidi-lsp-paragraphs beg end)))
      (unless (equal (plist-get paragraph :basis) "fallback")
        (let ((start (bidi-lsp--point (list :line (plist-get paragraph :line) :character 0))))
          (cl-incf count (bidi-lsp-insert-marks "direction" start start
                                                :direction (plist-get paragraph :direction)
                                                :strategy "firstStrong")))))
    count))

;;;; Diagnostics (Flymake)

(defvar-local bidi-lsp--diagnostics nil
  "The daemon's last published diagnostics for the buffer: (VERSION . LIST).")
(defvar-local bidi-lsp--flymake-report nil
  "The function Flymake gave the backend to report with.")

(defconst bidi-lsp--severities '((1 . :error) (2 . :warning) (3 . :note) (4 . :note))
  "Flymake types of LSP severities.")

(defun bidi-lsp--publish-diagnostics (params)
  "Store the published diagnostics of PARAMS and report them to Flymake."
  (let ((buffer (gethash (plist-get params :uri) bidi-lsp--buffers)))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer
        (setq bidi-lsp--diagnostics (cons (plist-get params :version)
                                          (append (plist-get params :diagnostics) nil)))
        (bidi-lsp--report-to-flymake)))))

(defun bidi-lsp-diagnostics ()
  "The buffer's current hazard diagnostics (LSP Diagnostic plists)."
  (cdr bidi-lsp--diagnostics))

(defun bidi-lsp-diagnostics-version ()
  "The document version the buffer's diagnostics describe, or nil."
  (car bidi-lsp--diagnostics))

(defun bidi-lsp--flymake-diagnostics ()
  "The buffer's diagnostics as Flymake diagnostics."
  (mapcar (lambda (diagnostic)
            (let* ((range (plist-get diagnostic :range))
                   (beg (bidi-lsp--point (plist-get range :start)))
                   (end (max (bidi-lsp--point (plist-get range :end)) (min (1+ beg) (point-max)))))
              (flymake-make-diagnostic
               (current-buffer) beg end
               (alist-get (plist-get diagnostic :severity) bidi-lsp--severities :error)
               (format "%s [%s]" (plist-get diagnostic :message) (plist-get diagnostic :code))
               diagnostic)))
          (bidi-lsp-diagnostics)))

(defun bidi-lsp--report-to-flymake ()
  "Give the buffer's diagnostics to Flymake, replacing the previous ones."
  (when bidi-lsp--flymake-report
    (save-restriction
      (widen)
      (funcall bidi-lsp--flymake-report (bidi-lsp--flymake-diagnostics)
               :region (cons (point-min) (point-max))))))

(defun bidi-lsp-flymake-backend (report-fn &rest _)
  "A Flymake backend for the daemon's hazard diagnostics; see REPORT-FN.
The daemon pushes diagnostics; this reports the latest ones and
keeps REPORT-FN for the next."
  (setq bidi-lsp--flymake-report report-fn)
  (bidi-lsp--report-to-flymake))

(defun bidi-lsp--code-actions (beg end only)
  "The daemon's code actions of the kinds ONLY for the lines from BEG to END."
  (let* ((range (bidi-lsp--lines-range beg end))
         (first (plist-get (plist-get range :start) :line))
         (last (plist-get (plist-get range :end) :line))
         (diagnostics (cl-remove-if-not
                       (lambda (d)
                         (let ((line (plist-get (plist-get (plist-get d :range) :start) :line)))
                           (and (>= line first) (<= line last))))
                       (bidi-lsp-diagnostics))))
    (append (bidi-lsp-request :textDocument/codeAction
                              (bidi-lsp--params :range range
                                                :context (list :diagnostics (vconcat diagnostics)
                                                               :only (vconcat only))))
            nil)))

(defun bidi-lsp--apply-action (action)
  "Apply the code ACTION; return its title."
  (bidi-lsp--apply-workspace-edit (plist-get action :edit))
  (plist-get action :title))

(defun bidi-lsp-fix-at-point (&optional choose)
  "Apply the preferred quick fix for the hazards on the current line.
With CHOOSE (interactively, a prefix argument), choose among the fixes.
Returns the title of the fix applied, or nil."
  (interactive "P")
  (let* ((actions (bidi-lsp--code-actions (line-beginning-position) (line-end-position)
                                          '("quickfix")))
         (action (cond ((null actions) nil)
                       (choose
                        (let ((titles (mapcar (lambda (a) (cons (plist-get a :title) a)) actions)))
                          (cdr (assoc (completing-read "Fix: " titles nil t) titles))))
                       (t (or (cl-find-if (lambda (a) (eq (plist-get a :isPreferred) t)) actions)
                              (car actions))))))
    (if (not action)
        (progn (message "bidi-lsp: nothing to fix on this line") nil)
      (message "bidi-lsp: %s" (plist-get action :title))
      (bidi-lsp--apply-action action))))

(defun bidi-lsp-fix-all ()
  "Fix every hazard of the buffer by removing the controls concerned."
  (interactive)
  (let ((action (car (save-restriction
                       (widen)
                       (bidi-lsp--code-actions (point-min) (point-max) '("source.fixAll"))))))
    (if (not action)
        (progn (message "bidi-lsp: nothing to fix") nil)
      (message "bidi-lsp: %s" (plist-get action :title))
      (bidi-lsp--apply-action action))))

;;;; Inlay hints

(defun bidi-lsp--clear-hints ()
  "Remove the hint overlays of the buffer."
  (save-restriction
    (widen)
    (remove-overlays (point-min) (point-max) 'bidi-lsp-hint t)))

(defun bidi-lsp-update-hints ()
  "Show the invisible bidi controls of the buffer by name."
  (interactive)
  (bidi-lsp--clear-hints)
  (when bidi-lsp-inlay-hints
    (let ((hints (save-restriction
                   (widen)
                   (bidi-lsp-request :textDocument/inlayHint
                                     (bidi-lsp--params
                                      :range (bidi-lsp--range (point-min) (point-max)))))))
      (cl-loop for hint across hints
               for pos = (bidi-lsp--point (plist-get hint :position))
               for label = (let ((label (plist-get hint :label)))
                             (if (stringp label) label
                               (mapconcat (lambda (part) (plist-get part :value)) label "")))
               do (let ((overlay (make-overlay pos pos nil t nil)))
                    (overlay-put overlay 'bidi-lsp-hint t)
                    (overlay-put overlay 'before-string
                                 (propertize (concat "<" label ">") 'face 'bidi-lsp-hint)))))))

(defun bidi-lsp-hints ()
  "The hints shown in the buffer, as a list of (POSITION . LABEL)."
  (save-restriction
    (widen)
    (sort (cl-loop for overlay in (overlays-in (point-min) (point-max))
                   when (overlay-get overlay 'bidi-lsp-hint)
                   collect (cons (overlay-start overlay)
                                 (substring-no-properties (overlay-get overlay 'before-string))))
          (lambda (a b) (< (car a) (car b))))))

;;;; Updates after changes

(defun bidi-lsp--schedule-update ()
  "Update the direction and the hints when Emacs is idle."
  (when (timerp bidi-lsp--timer) (cancel-timer bidi-lsp--timer))
  (setq bidi-lsp--timer
        (run-with-idle-timer bidi-lsp-idle-delay nil #'bidi-lsp--update (current-buffer))))

(defun bidi-lsp--update (buffer)
  "Update the direction and the hints of BUFFER."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (setq bidi-lsp--timer nil)
      (when bidi-lsp-mode
        (with-demoted-errors "bidi-lsp: %S"
          (when bidi-lsp-auto-direction (bidi-lsp-update-direction))
          (bidi-lsp-update-hints))))))

;;;; The minor mode

(defvar bidi-lsp-command-map
  (let ((map (make-sparse-keymap)))
    (define-key map "d" #'bidi-lsp-show-direction)
    (define-key map "v" #'bidi-lsp-show-visual-order)
    (define-key map "i" #'bidi-lsp-isolate-region)
    (define-key map "r" #'bidi-lsp-make-rtl)
    (define-key map "l" #'bidi-lsp-make-ltr)
    (define-key map "p" #'bidi-lsp-isolate-placeholders)
    (define-key map "P" #'bidi-lsp-mark-placeholders)
    (define-key map "o" #'bidi-lsp-isolate-runs)
    (define-key map "s" #'bidi-lsp-strip)
    (define-key map "m" #'bidi-lsp-insert-marks)
    (define-key map "f" #'bidi-lsp-fix-at-point)
    (define-key map "F" #'bidi-lsp-fix-all)
    (define-key map "h" #'bidi-lsp-describe-line)
    (define-key map "u" #'bidi-lsp-update-direction)
    map)
  "Keymap of the bidi-lsp commands, to bind to a prefix key of your choice.")
(fset 'bidi-lsp-command-map bidi-lsp-command-map)

(defvar bidi-lsp-mode-map (make-sparse-keymap)
  "Keymap of `bidi-lsp-mode' (empty: bind `bidi-lsp-command-map' in it).")

(defvar-local bidi-lsp--saved-direction nil
  "The paragraph direction settings before `bidi-lsp-mode' changed them.")

;;;###autoload
(define-minor-mode bidi-lsp-mode
  "Right-to-left and mixed-direction text support from the bidi-lsp daemon.
Sets the paragraph direction from the text (`bidi-lsp-auto-direction'),
reports bidi hazards with Flymake, shows invisible bidi controls,
and gives commands to insert marks and show the visual order:
\\{bidi-lsp-command-map}"
  :lighter " Bidi"
  :keymap bidi-lsp-mode-map
  (if bidi-lsp-mode
      (condition-case err
          (progn
            (bidi-lsp--did-open)
            (setq bidi-lsp--saved-direction
                  (list bidi-paragraph-direction bidi-paragraph-start-re bidi-paragraph-separate-re))
            (add-hook 'before-change-functions #'bidi-lsp--before-change-function nil t)
            (add-hook 'after-change-functions #'bidi-lsp--after-change-function nil t)
            (add-hook 'kill-buffer-hook #'bidi-lsp--did-close nil t)
            (add-hook 'after-revert-hook #'bidi-lsp-resync nil t)
            (add-hook 'flymake-diagnostic-functions #'bidi-lsp-flymake-backend nil t)
            (when bidi-lsp-flymake (flymake-mode 1))
            (bidi-lsp--update (current-buffer)))
        (error
         (setq bidi-lsp-mode nil)
         (message "bidi-lsp: %s" (error-message-string err))))
    (remove-hook 'before-change-functions #'bidi-lsp--before-change-function t)
    (remove-hook 'after-change-functions #'bidi-lsp--after-change-function t)
    (remove-hook 'kill-buffer-hook #'bidi-lsp--did-close t)
    (remove-hook 'after-revert-hook #'bidi-lsp-resync t)
    (remove-hook 'flymake-diagnostic-functions #'bidi-lsp-flymake-backend t)
    (when (timerp bidi-lsp--timer) (cancel-timer bidi-lsp--timer))
    (bidi-lsp--did-close)
    (bidi-lsp--clear-hints)
    (setq bidi-lsp--diagnostics nil)
    (when bidi-lsp--flymake-report
      (bidi-lsp--report-to-flymake)
      (setq bidi-lsp--flymake-report nil))
    (when bidi-lsp--saved-direction
      (setq-local bidi-paragraph-direction (nth 0 bidi-lsp--saved-direction)
                  bidi-paragraph-start-re (nth 1 bidi-lsp--saved-direction)
                  bidi-paragraph-separate-re (nth 2 bidi-lsp--saved-direction))
      (setq bidi-lsp--saved-direction nil))))

(provide 'bidi-lsp)
;;; bidi-lsp.el ends here
