;;; bidi-lsp-view.el --- The lines in view: directions, hints, updates  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 the bidi-lsp authors

;; This file is not part of GNU Emacs.  It is distributed under the same
;; license as bidi-lsp.

;;; Commentary:

;; Part of bidi-lsp.el.  What `bidi-lsp-mode' asks the daemon by itself,
;; for the lines in the buffer's windows (and `bidi-lsp-view-margin'
;; lines around them) once typing or scrolling pauses: the inlay hints
;; that name the invisible bidi controls, and the paragraph direction
;; (`bidi-lsp-auto-direction').  Also the direction commands
;; (`bidi-lsp-show-direction', `bidi-lsp-update-direction').

;;; Code:

(require 'cl-lib)
(require 'bidi-lsp-l10n)
(require 'bidi-lsp-documents)
(require 'bidi-lsp-daemon)

;;;; Customization

(defcustom bidi-lsp-auto-direction 'line
  "How `bidi-lsp-mode' sets the paragraph direction of a buffer.
`line' (the default): every line is its own paragraph, and Emacs
gives each one its own direction from its first strong character
\(UAX #9 rules P2 and P3, the daemon's `firstStrong'), so that the
English lines of a mixed note stay left to right and the Arabic or
Hebrew ones right to left.  With another `bidi-lsp-strategy', use
`bidi-lsp-mark-directions' to make the lines whose direction comes
out differently display so.
`visible': `bidi-paragraph-direction' is the natural direction of
most lines in the buffer's windows (found with `bidi-lsp-strategy'),
kept up to date as the text changes and scrolls; every line then
displays in that direction.
`first': the direction of the first line with a strong character,
among the first 1000 lines.
nil: leave the direction alone.
\(`document' is the old name of `visible'.)"
  :type '(choice (const :tag "Each line by itself" line)
                 (const :tag "Most lines in view" visible)
                 (const :tag "First line with a strong character" first)
                 (const :tag "Do not change" nil))
  :group 'bidi-lsp)

(defcustom bidi-lsp-inlay-hints t
  "Whether to show the invisible bidi controls by name, e.g. <RLM>."
  :type 'boolean
  :group 'bidi-lsp)

(defcustom bidi-lsp-idle-delay 0.15
  "Idle seconds after a change or a scroll before the view is updated."
  :type 'number
  :group 'bidi-lsp)

(defcustom bidi-lsp-view-margin 50
  "Lines above and below a window's text that the automatic updates cover."
  :type 'integer
  :group 'bidi-lsp)

(defface bidi-lsp-hint '((t :inherit shadow :height 0.8))
  "Face of the names shown for invisible bidi controls."
  :group 'bidi-lsp)

(defvar bidi-lsp-mode)

(defconst bidi-lsp--view-limit 1000
  "The most lines one automatic request covers.")

;;;; The lines in view

(defun bidi-lsp--window-spans (&optional buffer)
  "The spans (BEG . END) of BUFFER's text in its windows, with a margin.
Sorted and merged; nil when no window shows BUFFER.  A window's span
is its start and as many lines as it has rows (a line that wraps
takes more rows, so this covers at least what it shows)."
  (let ((buffer (or buffer (current-buffer))) spans)
    (dolist (window (get-buffer-window-list buffer nil t))
      (with-current-buffer buffer
        (save-excursion
          (goto-char (window-start window))
          (let* ((rows (min (window-body-height window) bidi-lsp--view-limit))
                 (margin (max 0 (min bidi-lsp-view-margin (/ (- bidi-lsp--view-limit rows) 2))))
                 (beg (progn (forward-line (- margin)) (point)))
                 (end (progn (goto-char (window-start window))
                             (forward-line (+ rows margin))
                             (point))))
            (push (cons beg end) spans)))))
    (let (merged)
      (dolist (span (sort spans (lambda (a b) (< (car a) (car b)))))
        (if (and merged (<= (car span) (cdar merged)))
            (setcdr (car merged) (max (cdr span) (cdar merged)))
          (push span merged)))
      (nreverse merged))))

(defun bidi-lsp--view-spans ()
  "The spans of the buffer in view, else the lines around point."
  (or (bidi-lsp--window-spans)
      (save-excursion
        (let* ((beg (progn (forward-line (- bidi-lsp-view-margin)) (point)))
               (end (progn (forward-line (* 2 bidi-lsp-view-margin)) (point))))
          (list (cons beg end))))))

;;;; Directions

(defun bidi-lsp-paragraphs (beg end)
  "The paragraphs of the lines from BEG to END, with their natural direction.
A list of plists (:line :start :end :direction :basis :strongCharacter)."
  (append (plist-get (bidi-lsp-request :bidi/naturalDirection
                                       (bidi-lsp--params :range (bidi-lsp--range beg end)))
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

(defun bidi-lsp--target ()
  "What a command acts on without a prefix, as a list (BEG END).
The active region; else, in a structured document, point (the daemon
takes the value, block or cue line under it); else the current line."
  (cond ((use-region-p) (list (region-beginning) (region-end)))
        ((bidi-lsp-structured-p) (list (point) (point)))
        (t (list (line-beginning-position) (line-end-position)))))

(defun bidi-lsp-show-direction (beg end)
  "Show the natural direction of the lines from BEG to END and its basis.
Interactively, the lines of the region, or the current line."
  (interactive (bidi-lsp--target))
  (let ((text (mapconcat #'bidi-lsp--describe-paragraph (bidi-lsp-paragraphs beg end) "\n")))
    (message "%s" text)
    text))

(defun bidi-lsp--majority (paragraphs)
  "The direction of most PARAGRAPHS with a strong character, as a symbol.
The first one's on a tie; nil when none has one.  With
`bidi-lsp-auto-direction' set to `first', the first one's."
  (let ((counts (list 0 0)) first)
    (cl-loop for paragraph in paragraphs
             unless (equal (plist-get paragraph :basis) "fallback")
             do (let ((rtl (equal (plist-get paragraph :direction) "rtl")))
                  (unless first (setq first (if rtl 'right-to-left 'left-to-right)))
                  (cl-incf (nth (if rtl 1 0) counts)))
             until (and first (eq bidi-lsp-auto-direction 'first)))
    (cond ((or (eq bidi-lsp-auto-direction 'first) (= (nth 0 counts) (nth 1 counts))) first)
          ((> (nth 1 counts) (nth 0 counts)) 'right-to-left)
          (t 'left-to-right))))

(defun bidi-lsp--direction-span ()
  "The span whose lines decide the direction under `bidi-lsp-auto-direction'."
  (if (eq bidi-lsp-auto-direction 'first)
      (save-restriction
        (widen)
        (save-excursion
          (goto-char (point-min))
          (forward-line bidi-lsp--view-limit)
          (cons (point-min) (point))))
    (car (bidi-lsp--view-spans))))

(defun bidi-lsp-document-direction (&optional beg end)
  "The natural direction of the text, `left-to-right' or `right-to-left'.
That of most lines from BEG to END (by default, the lines in view);
with `bidi-lsp-auto-direction' set to `first', of the first line
with a strong character.  nil when no line has one."
  (let ((span (if beg (cons beg end) (bidi-lsp--direction-span))))
    (bidi-lsp--majority (bidi-lsp-paragraphs (car span) (cdr span)))))

(defun bidi-lsp--set-direction (direction)
  "Make DIRECTION the buffer's, as set by `bidi-lsp-auto-direction'."
  (pcase bidi-lsp-auto-direction
    ('line
     (setq-local bidi-paragraph-direction nil
                 bidi-paragraph-start-re "^"
                 bidi-paragraph-separate-re "^"))
    ((or 'visible 'document 'first)
     (when direction
       (setq-local bidi-paragraph-direction direction)))))

(defun bidi-lsp-update-direction ()
  "Set the paragraph direction of the buffer as `bidi-lsp-auto-direction' asks."
  (interactive)
  (bidi-lsp--set-direction (and (memq bidi-lsp-auto-direction '(visible document first))
                                (bidi-lsp-document-direction))))

;;;; Inlay hints

(defun bidi-lsp--clear-hints (&optional beg end)
  "Remove the hint overlays from BEG to END (default: the whole buffer)."
  (save-restriction
    (widen)
    (remove-overlays (or beg (point-min)) (or end (point-max)) 'bidi-lsp-hint t)))

(defun bidi-lsp--clear-hints-outside (spans)
  "Remove the hint overlays that lie outside SPANS, a list of (BEG . END)."
  (save-restriction
    (widen)
    (dolist (overlay (overlays-in (point-min) (point-max)))
      (when (and (overlay-get overlay 'bidi-lsp-hint)
                 (not (cl-some (lambda (span) (<= (car span) (overlay-start overlay) (cdr span)))
                               spans)))
        (delete-overlay overlay)))))

(defun bidi-lsp--hint-label (hint)
  "The label of the LSP inlay HINT, as a string."
  (let ((label (plist-get hint :label)))
    (if (stringp label) label (mapconcat (lambda (part) (plist-get part :value)) label ""))))

(defun bidi-lsp--show-hints (beg end hints)
  "Show HINTS (a vector of LSP InlayHints) from BEG to END, replacing those there."
  (bidi-lsp--clear-hints beg end)
  (let ((hints (append hints nil)))
    (cl-loop for hint in hints
             for pos in (bidi-lsp--points (mapcar (lambda (h) (plist-get h :position)) hints))
             do (let ((overlay (make-overlay pos pos nil t nil)))
                  (overlay-put overlay 'bidi-lsp-hint t)
                  (overlay-put overlay 'before-string
                               (propertize (concat "<" (bidi-lsp--hint-label hint) ">")
                                           'face 'bidi-lsp-hint))))))

(defun bidi-lsp--hint-params (beg end)
  "The inlayHint request for the text from BEG to END."
  (bidi-lsp--params :range (bidi-lsp--range beg end)))

(defun bidi-lsp-update-hints ()
  "Show the invisible bidi controls in view by name."
  (interactive)
  (let ((spans (bidi-lsp--view-spans)))
    (bidi-lsp--clear-hints-outside spans)
    (dolist (span spans)
      (bidi-lsp--show-hints (car span) (cdr span)
                            (and bidi-lsp-inlay-hints
                                 (bidi-lsp-request :textDocument/inlayHint
                                                   (bidi-lsp--hint-params (car span) (cdr span))))))))

(defun bidi-lsp-hints ()
  "The hints shown in the buffer, as a list of (POSITION . LABEL)."
  (save-restriction
    (widen)
    (sort (cl-loop for overlay in (overlays-in (point-min) (point-max))
                   when (overlay-get overlay 'bidi-lsp-hint)
                   collect (cons (overlay-start overlay)
                                 (substring-no-properties (overlay-get overlay 'before-string))))
          (lambda (a b) (< (car a) (car b))))))

;;;; Automatic updates

(defvar-local bidi-lsp--update-timer nil "The idle timer of the buffer's next update.")
(defvar-local bidi-lsp--in-flight 0 "The automatic requests of the buffer not yet answered.")
(defvar-local bidi-lsp--update-again nil "Non-nil when an update waits for the answers.")
(defvar-local bidi-lsp--updated nil "(VERSION SPANS) of the last update.")

(defun bidi-lsp--schedule-update (&optional delay)
  "Update the view after DELAY idle seconds (default `bidi-lsp-idle-delay')."
  (when bidi-lsp-mode
    (when (timerp bidi-lsp--update-timer) (cancel-timer bidi-lsp--update-timer))
    (setq bidi-lsp--update-timer
          (run-with-idle-timer (or delay bidi-lsp-idle-delay) nil
                               #'bidi-lsp--update (current-buffer)))))

(defun bidi-lsp--answered (buffer version)
  "Count an automatic answer for BUFFER asked at VERSION; update again if due."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (setq bidi-lsp--in-flight (max 0 (1- bidi-lsp--in-flight)))
      (when (and (= bidi-lsp--in-flight 0)
                 (or bidi-lsp--update-again (not (eq version bidi-lsp--version))))
        (setq bidi-lsp--update-again nil
              bidi-lsp--updated nil)
        (bidi-lsp--schedule-update 0)))))

(defun bidi-lsp--ask (buffer method params apply)
  "Ask the daemon METHOD with PARAMS for BUFFER; call APPLY with the result.
APPLY runs in BUFFER, only if it has not changed since."
  (let ((version bidi-lsp--version))
    (cl-incf bidi-lsp--in-flight)
    (bidi-lsp--async-request
     method params
     (lambda (result)
       (when (and (buffer-live-p buffer) (eq version (buffer-local-value 'bidi-lsp--version buffer)))
         (with-current-buffer buffer (funcall apply result)))
       (bidi-lsp--answered buffer version))
     (lambda () (bidi-lsp--answered buffer version)))))

(defun bidi-lsp--update (buffer)
  "Update the hints and the direction of BUFFER's text in view.
Asks only for the lines in its windows (nothing when none shows
it), one request at a time per kind, none while answers are due."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (setq bidi-lsp--update-timer nil)
      (when (and bidi-lsp-mode bidi-lsp--version (bidi-lsp-running-p))
        (if (> bidi-lsp--in-flight 0)
            (setq bidi-lsp--update-again t)
          (let ((spans (bidi-lsp--window-spans)))
            (when (and spans (not (equal bidi-lsp--updated (list bidi-lsp--version spans))))
              (setq bidi-lsp--updated (list bidi-lsp--version spans))
              (bidi-lsp--clear-hints-outside spans)
              (dolist (span spans)
                (if (not bidi-lsp-inlay-hints)
                    (bidi-lsp--clear-hints (car span) (cdr span))
                  (bidi-lsp--ask buffer :textDocument/inlayHint
                                 (bidi-lsp--hint-params (car span) (cdr span))
                                 (lambda (hints) (bidi-lsp--show-hints (car span) (cdr span) hints)))))
              (when (memq bidi-lsp-auto-direction '(visible document first))
                (let ((span (bidi-lsp--direction-span)))
                  (bidi-lsp--ask buffer :bidi/naturalDirection
                                 (bidi-lsp--params :range (bidi-lsp--range (car span) (cdr span)))
                                 (lambda (answer)
                                   (bidi-lsp--set-direction
                                    (bidi-lsp--majority
                                     (append (plist-get answer :paragraphs) nil))))))))))))))

(defun bidi-lsp--window-scrolled (window _start)
  "Update WINDOW's buffer when scrolling pauses."
  (with-current-buffer (window-buffer window) (bidi-lsp--schedule-update)))

(defun bidi-lsp--windows-changed ()
  "Update the buffer when its windows change."
  (bidi-lsp--schedule-update))

(defun bidi-lsp--update-all ()
  "Update every attached buffer in view (after the daemon started)."
  (dolist (buffer (hash-table-values bidi-lsp--buffers))
    (when (and (buffer-live-p buffer) (get-buffer-window buffer t))
      (with-current-buffer buffer
        (setq bidi-lsp--updated nil
              bidi-lsp--in-flight 0)
        (bidi-lsp--schedule-update 0)))))

(add-hook 'bidi-lsp-after-start-hook #'bidi-lsp--update-all)

(provide 'bidi-lsp-view)
;;; bidi-lsp-view.el ends here
