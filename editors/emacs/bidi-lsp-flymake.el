;;; bidi-lsp-flymake.el --- Trojan Source hazards of bidi-lsp in Flymake  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 the bidi-lsp authors

;; This file is not part of GNU Emacs.  It is distributed under the same
;; license as bidi-lsp.

;;; Commentary:

;; Part of bidi-lsp.el.  The daemon pushes each buffer's hazard
;; diagnostics (`textDocument/publishDiagnostics'); this file keeps them,
;; reports them to Flymake, lists them in line order, and applies the
;; daemon's quick fixes (`bidi-lsp-fix-at-point', `bidi-lsp-fix-all').

;;; Code:

(require 'cl-lib)
(require 'flymake)
(require 'tabulated-list)
(require 'bidi-lsp-daemon)

(defcustom bidi-lsp-flymake t
  "How `bidi-lsp-mode' uses Flymake for the hazard diagnostics.
t: when Flymake is off, turn it on with bidi-lsp's backend alone,
so that the buffer's other checkers (which may need a Makefile or
a compiler) do not run and complain; when Flymake is on, add the
backend to it.  `all': turn Flymake on with every backend of the
buffer.  nil: only add the backend, for when Flymake is turned on."
  :type '(choice (const :tag "bidi-lsp alone, unless Flymake is on" t)
                 (const :tag "With every backend" all)
                 (const :tag "Do not turn Flymake on" nil))
  :group 'bidi-lsp)

(defvar-local bidi-lsp--diagnostics nil
  "The daemon's last published diagnostics for the buffer: (VERSION . LIST).")
(defvar-local bidi-lsp--flymake-report nil
  "The function Flymake gave the backend to report with.")
(defvar-local bidi-lsp--flymake-saved nil
  "How Flymake was before `bidi-lsp-mode': (WAS-ON REPLACED LOCAL-P FUNCTIONS).")

(defconst bidi-lsp--severities '((1 . :error) (2 . :warning) (3 . :note) (4 . :note))
  "Flymake types of LSP severities.")

(defun bidi-lsp--publish-diagnostics (method params)
  "Store the diagnostics of PARAMS when METHOD publishes them; report them."
  (when (eq method 'textDocument/publishDiagnostics)
    (let ((buffer (gethash (plist-get params :uri) bidi-lsp--buffers)))
      (when (buffer-live-p buffer)
        (with-current-buffer buffer
          (setq bidi-lsp--diagnostics (cons (plist-get params :version)
                                            (append (plist-get params :diagnostics) nil)))
          (bidi-lsp--report-to-flymake))))))

(add-hook 'bidi-lsp-notification-functions #'bidi-lsp--publish-diagnostics)

(defun bidi-lsp-diagnostics ()
  "The buffer's current hazard diagnostics (LSP Diagnostic plists)."
  (cdr bidi-lsp--diagnostics))

(defun bidi-lsp-diagnostics-version ()
  "The document version the buffer's diagnostics describe, or nil."
  (car bidi-lsp--diagnostics))

(defun bidi-lsp--flymake-diagnostics ()
  "The buffer's diagnostics as Flymake diagnostics."
  (let* ((diagnostics (bidi-lsp-diagnostics))
         (points (bidi-lsp--points
                  (cl-loop for d in diagnostics
                           for range = (plist-get d :range)
                           collect (plist-get range :start) collect (plist-get range :end)))))
    (cl-loop for diagnostic in diagnostics
             for (beg end) on points by #'cddr
             collect (flymake-make-diagnostic
                      (current-buffer) beg (max end (min (1+ beg) (point-max)))
                      (alist-get (plist-get diagnostic :severity) bidi-lsp--severities :error)
                      (format "%s [%s]" (plist-get diagnostic :message) (plist-get diagnostic :code))
                      diagnostic))))

(defun bidi-lsp--report-to-flymake ()
  "Give the buffer's diagnostics to Flymake, replacing the previous ones."
  (when (and bidi-lsp--flymake-report flymake-mode
             (memq #'bidi-lsp-flymake-backend (flymake-running-backends)))
    (save-restriction
      (widen)
      (condition-case err
          (funcall bidi-lsp--flymake-report (bidi-lsp--flymake-diagnostics)
                   :region (cons (point-min) (point-max)))
        ;; Flymake refused the report (it restarted, or disabled the backend):
        ;; the next run of the backend reports again.
        (error (flymake-log :debug "bidi-lsp: %s" (error-message-string err)))))))

(defun bidi-lsp-flymake-backend (report-fn &rest _)
  "A Flymake backend for the daemon's hazard diagnostics; see REPORT-FN.
The daemon pushes diagnostics; this reports the latest ones and
keeps REPORT-FN for the next."
  (setq bidi-lsp--flymake-report report-fn)
  (save-restriction
    (widen)
    (funcall report-fn (bidi-lsp--flymake-diagnostics) :region (cons (point-min) (point-max)))))

(defun bidi-lsp--flymake-setup ()
  "Report the hazards to Flymake, as set by `bidi-lsp-flymake'."
  (unless bidi-lsp--flymake-saved
    (let ((replace (and (eq bidi-lsp-flymake t) (not flymake-mode))))
      (setq bidi-lsp--flymake-saved
            (list flymake-mode replace (local-variable-p 'flymake-diagnostic-functions)
                  flymake-diagnostic-functions))
      (if replace
          (setq-local flymake-diagnostic-functions (list #'bidi-lsp-flymake-backend))
        (add-hook 'flymake-diagnostic-functions #'bidi-lsp-flymake-backend nil t))
      (cond (flymake-mode (flymake-start))
            (bidi-lsp-flymake (flymake-mode 1))))))

(defun bidi-lsp--flymake-teardown ()
  "Take the hazards out of Flymake, and leave it as it was."
  (setq bidi-lsp--diagnostics nil)
  (bidi-lsp--report-to-flymake)
  (setq bidi-lsp--flymake-report nil)
  (when bidi-lsp--flymake-saved
    (pcase-let ((`(,was-on ,replaced ,local ,functions) bidi-lsp--flymake-saved))
      (setq bidi-lsp--flymake-saved nil)
      (cond ((not replaced)
             (remove-hook 'flymake-diagnostic-functions #'bidi-lsp-flymake-backend t))
            (local (setq-local flymake-diagnostic-functions functions))
            (t (kill-local-variable 'flymake-diagnostic-functions)))
      (when (and flymake-mode (not was-on))
        (flymake-mode -1)))))

;;;; The list of diagnostics

(defun bidi-lsp--sort-flymake-list ()
  "List the diagnostics of a `bidi-lsp-mode' buffer in line order.
For `flymake-diagnostics-buffer-mode-hook': Emacs 28's list follows
the order of the overlays, often the reverse one."
  (when (string-match "\\`\\*Flymake diagnostics for `\\(.*\\)'\\*\\'" (buffer-name))
    (let ((source (get-buffer (match-string 1 (buffer-name)))))
      (when (and source (buffer-local-value 'bidi-lsp-mode source)
                 (null tabulated-list-sort-key))
        (setq-local tabulated-list-sort-key (cons "Line" nil))
        (tabulated-list-init-header)))))

(add-hook 'flymake-diagnostics-buffer-mode-hook #'bidi-lsp--sort-flymake-list)

;;;; Quick fixes

(defun bidi-lsp--before-p (a b)
  "Non-nil when the LSP Position A is before B."
  (or (< (plist-get a :line) (plist-get b :line))
      (and (= (plist-get a :line) (plist-get b :line))
           (< (plist-get a :character) (plist-get b :character)))))

(defun bidi-lsp--touches-p (range start end)
  "Non-nil when the LSP RANGE touches the span from the Positions START to END."
  (not (or (bidi-lsp--before-p (plist-get range :end) start)
           (bidi-lsp--before-p end (plist-get range :start)))))

(defun bidi-lsp--fix-target ()
  "What the quick fixes are for, as a list (BEG END).
The active region; else, in a localization file, point (the value
under it); else the current line: every hazard on it."
  (cond ((use-region-p) (list (region-beginning) (region-end)))
        ((bidi-lsp-localization-p) (list (point) (point)))
        (t (list (line-beginning-position) (line-end-position)))))

(defun bidi-lsp--unique-actions (actions)
  "ACTIONS without repeats: each kind, title and edit once.
The daemon offers a fix once per diagnostic, and a control can have
two (an RLO in a comment is both `inComment' and `override')."
  (let (seen unique)
    (dolist (action actions)
      (let* ((key (list (plist-get action :kind) (plist-get action :title) (plist-get action :edit)))
             (kept (cdr (assoc key seen))))
        (if (not kept)
            (let ((copy (copy-sequence action)))
              (push (cons key copy) seen)
              (push copy unique))
          (when (eq (plist-get action :isPreferred) t)
            (plist-put kept :isPreferred t))
          (plist-put kept :diagnostics (vconcat (plist-get kept :diagnostics)
                                                (plist-get action :diagnostics))))))
    (nreverse unique)))

(defun bidi-lsp--code-actions (beg end only)
  "The daemon's code actions of the kinds ONLY for the text from BEG to END.
With the buffer's diagnostics that touch it; without repeats."
  (let* ((range (bidi-lsp--range beg end))
         (start (plist-get range :start))
         (stop (plist-get range :end))
         (diagnostics (cl-remove-if-not
                       (lambda (d) (bidi-lsp--touches-p (plist-get d :range) start stop))
                       (bidi-lsp-diagnostics))))
    (bidi-lsp--unique-actions
     (append (bidi-lsp-request :textDocument/codeAction
                               (bidi-lsp--params :range range
                                                 :context (list :diagnostics (vconcat diagnostics)
                                                                :only (vconcat only))))
             nil))))

(defun bidi-lsp--apply-action (action)
  "Apply the code ACTION; return its title."
  (bidi-lsp--apply-workspace-edit (plist-get action :edit))
  (plist-get action :title))

(defun bidi-lsp--action-distance (action pos)
  "How far the hazards ACTION fixes are from the buffer position POS."
  (let ((starts (mapcar (lambda (d) (plist-get (plist-get d :range) :start))
                        (plist-get action :diagnostics))))
    (if starts
        (apply #'min (mapcar (lambda (p) (abs (- (bidi-lsp--point p) pos))) starts))
      most-positive-fixnum)))

(defun bidi-lsp--choice-titles (actions)
  "An alist from distinct titles to ACTIONS, for `completing-read'."
  (let ((seen (make-hash-table :test #'equal)))
    (mapcar (lambda (action)
              (let* ((title (plist-get action :title))
                     (count (cl-incf (gethash title seen 0))))
                (cons (if (= count 1) title (format "%s <%d>" title count)) action)))
            actions)))

(defun bidi-lsp-fix-at-point (&optional choose)
  "Apply a quick fix for the hazards on the current line.
The preferred fix of the hazard nearest point; with CHOOSE
\(interactively, a prefix argument), choose among the fixes of
every hazard on the line.  With an active region, the hazards in
it; in a localization file, those of the value under point.
Returns the title of the fix applied, or nil."
  (interactive "P")
  (let* ((actions (apply #'bidi-lsp--code-actions
                         (append (bidi-lsp--fix-target) (list '("quickfix")))))
         (pos (point))
         (action (cond ((null actions) nil)
                       (choose
                        (let ((titles (bidi-lsp--choice-titles actions)))
                          (cdr (assoc (completing-read "Fix: " titles nil t) titles))))
                       (t (car (sort (or (cl-remove-if-not
                                          (lambda (a) (eq (plist-get a :isPreferred) t)) actions)
                                         actions)
                                     (lambda (a b) (< (bidi-lsp--action-distance a pos)
                                                      (bidi-lsp--action-distance b pos)))))))))
    (if (not action)
        (progn (message "bidi-lsp: nothing to fix here") nil)
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

(provide 'bidi-lsp-flymake)
;;; bidi-lsp-flymake.el ends here
