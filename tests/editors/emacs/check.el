;;; check.el --- evalyaml through Eglot, as Emacs sees it  -*- lexical-binding: t -*-
;; Loaded after the docs/editors.md recipe in `emacs --batch'. Reads Emacs's own view of the
;; server: Flymake diagnostics, `completion-at-point' candidates, `xref-find-definitions'
;; jumping, and `eglot-code-actions' applying a quick fix; JSON, JSON Lines and Markdown buffers
;; get what the CLI says about them. Works with Eglot 1.9 (Emacs 28) and the Eglot built into
;; later Emacsen.
(require 'cl-lib)
(require 'eglot)
(require 'flymake)
(require 'xref)

(defconst ey-ws (file-name-as-directory (file-truename (getenv "EY_WORKSPACE"))))
(defconst ey-timeout (/ (string-to-number (or (getenv "EY_TIMEOUT_MS") "30000")) 1000.0))
(defconst ey-kinds '("must_contain_any" "must_not_contain" "regex" "json_schema" "php_lint"
                     "markdown_structure" "tool_usage" "format" "fact_match" "llm_judge"
                     "composite"))
(defconst ey-typo-file "mistakes/datasets/EY205-typo-expecteed_facts.yaml")
(defconst ey-not-ours "deploy/k8s-service.yaml")
(defvar ey-passed 0)
(defvar ey-failed 0)

;; Batch mode: no questions, no confirmation prompts.
(setq eglot-confirm-server-initiated-edits nil
      xref-prompt-for-identifier nil
      make-backup-files nil
      create-lockfiles nil
      flymake-no-changes-timeout nil)

(defun ey-out (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n")))

(defmacro ey-check (name &rest body)
  (declare (indent 1))
  `(condition-case err
       (let ((detail (progn ,@body)))
         (cl-incf ey-passed)
         (ey-out "PASS %s%s" ,name (if detail (concat ": " detail) "")))
     (error
      (cl-incf ey-failed)
      (ey-out "FAIL %s: %s" ,name (error-message-string err)))))

(defun ey-wait (pred what &optional seconds)
  "Run the event loop until PRED is non-nil; signal an error naming WHAT on time-out."
  (let ((end (+ (float-time) (or seconds ey-timeout)))
        (value nil))
    (while (and (not (setq value (funcall pred))) (< (float-time) end))
      (accept-process-output nil 0.1))
    (or value (error "timed out after %ss waiting for %s" (or seconds ey-timeout) what))))

(defun ey-lines (rel)
  (with-temp-buffer
    (insert-file-contents (expand-file-name rel ey-ws))
    (split-string (buffer-string) "\n")))

(defun ey-yaml-files (dir)
  (sort (mapcar (lambda (f) (file-relative-name f ey-ws))
                (directory-files-recursively (expand-file-name dir ey-ws) "\\.ya?ml\\'"))
        #'string<))

(defun ey-find-key (rel key)
  "(LINE . COLUMN) of the first mapping KEY in REL, 1-based line, 0-based column."
  (let ((n 0) found)
    (dolist (l (ey-lines rel))
      (cl-incf n)
      (when (and (not found)
                 (string-match (concat "^\\(\\s-*\\(?:-\\s-+\\)?\\)" (regexp-quote key) "\\s-*:") l))
        (setq found (cons n (length (match-string 1 l))))))
    (or found (error "%s has no key %s" rel key))))

(defun ey-goto (line col)
  (goto-char (point-min))
  (forward-line (1- line))
  (move-to-column col))

(defun ey-open (rel)
  "Visit REL like a user would and wait for Eglot to manage the buffer."
  (let ((buf (find-file-noselect (expand-file-name rel ey-ws))))
    (set-buffer buf)
    (switch-to-buffer buf)
    ;; `eglot-ensure' connects from `post-command-hook', which batch mode never runs by itself.
    (run-hooks 'post-command-hook)
    (ey-wait (lambda () (and (eglot-current-server) eglot--managed-mode)) (format "Eglot to manage %s" rel))
    buf))

(defun ey-diagnostics ()
  "Flymake's diagnostics in the current buffer, after asking Flymake to run."
  (flymake-start)
  (accept-process-output nil 0.05)
  (flymake-diagnostics))

(defun ey-evalyaml-diags ()
  (cl-remove-if-not (lambda (d) (string-match-p "\\`evalyaml\\|EY[0-9]" (flymake-diagnostic-text d)))
                    (ey-diagnostics)))

(defun ey-blank-kind-value (line)
  "Delete the value after `kind:' on LINE; leave point after `kind: '."
  (ey-goto line 0)
  (unless (looking-at "\\s-*\\(?:-\\s-+\\)?kind:\\s-*")
    (error "line %d has no kind:" line))
  (goto-char (match-end 0))
  (delete-region (point) (line-end-position)))

(defun ey-completions ()
  "Candidates `completion-at-point' would offer here (Eglot's capf)."
  (let ((capf (eglot-completion-at-point)))
    (and capf (all-completions "" (nth 2 capf)))))

(defun ey-revert ()
  (set-buffer-modified-p nil)
  (revert-buffer t t t))

(ey-check "the recipe starts evalyaml for YAML buffers at the project root"
  (ey-open ey-typo-file)
  (let* ((server (eglot-current-server))
         (root (file-name-as-directory (file-truename (project-root (eglot--project server))))))
    (unless (equal root ey-ws)
      (error "server root is %s, expected %s" root ey-ws))
    (format "%s in %s for %s" (eglot--server-info server) root major-mode)))

(ey-check "(a) Flymake lists the EY205 typo"
  (ey-open ey-typo-file)
  (let* ((pos (ey-find-key ey-typo-file "expecteed_facts"))
         (diag (ey-wait (lambda ()
                          (cl-find-if (lambda (d) (string-match-p "EY205" (flymake-diagnostic-text d)))
                                      (ey-diagnostics)))
                        "an EY205 diagnostic"))
         (beg (flymake-diagnostic-beg diag)))
    (unless (and (= (line-number-at-pos beg) (car pos))
                 (= (save-excursion (goto-char beg) (current-column)) (cdr pos)))
      (error "EY205 at line %d, expected %d:%d" (line-number-at-pos beg) (car pos) (cdr pos)))
    (format "%s:%d: %s" ey-typo-file (car pos) (flymake-diagnostic-text diag))))

(ey-check "(b) completion after `kind: ' offers the eleven check kinds"
  (let (rel line)
    (cl-loop for f in (ey-yaml-files "rubrics") until rel
             do (cl-loop for l in (ey-lines f) for n from 1
                         when (string-match-p "^\\s-*\\(?:-\\s-+\\)?kind:\\s-*\\S-" l)
                         return (setq rel f line n)))
    (unless rel (error "no rubric with a kind: line"))
    (ey-open rel)
    (ey-blank-kind-value line)
    (let ((end (+ (float-time) ey-timeout))
          labels missing)
      (while (progn (setq labels (ey-completions)
                          missing (cl-set-difference ey-kinds labels :test #'equal))
                    (and missing (< (float-time) end)))
        (accept-process-output nil 0.5))
      (ey-revert)
      (when missing
        (error "%s:%d missing %s; offered %s" rel line (string-join missing ", ")
               (string-join labels ", ")))
      (format "%s:%d offered %d items" rel line (length labels)))))

(ey-check "(c) xref-find-definitions on rubric_ref jumps to the rubric id line"
  (let (rel line col id)
    (cl-loop for f in (ey-yaml-files "datasets") until rel
             do (cl-loop for l in (ey-lines f) for n from 1
                         when (string-match "^\\(\\s-*\\(?:-\\s-+\\)?rubric_ref:\\s-*[\"']?rubric/\\)\\([A-Za-z0-9_-]+\\)" l)
                         return (setq rel f line n col (1+ (length (match-string 1 l))) id (match-string 2 l))))
    (unless rel (error "no dataset with a rubric_ref"))
    (let ((from (ey-open rel))
          (end (+ (float-time) ey-timeout))
          (last-error nil))
      ;; Asked again until it answers: right after start the server may still be indexing.
      (while (and (eq (current-buffer) from) (< (float-time) end))
        (ey-goto line col)
        (condition-case err
            (call-interactively #'xref-find-definitions)
          (error (setq last-error (error-message-string err))
                 (accept-process-output nil 1))))
      (when (eq (current-buffer) from)
        (error "no definition from %s:%d:%d (%s)" rel line col (or last-error "no jump")))
      (let ((target (file-relative-name (buffer-file-name) ey-ws))
            (text (buffer-substring-no-properties (line-beginning-position) (line-end-position))))
        (unless (and (string-match-p "\\`\\(.*/\\)?rubrics/" target)
                     (string-match-p "^\\s-*id\\s-*:" text)
                     (string-match-p (regexp-quote id) text))
          (error "jumped to %s:%d (%S), not the id line of rubric %s" target (line-number-at-pos) text id))
        (format "%s:%d -> %s:%d (%s)" rel line target (line-number-at-pos) text)))))

(ey-check "(d) eglot-code-actions applies the EY205 quick fix"
  (ey-open ey-typo-file)
  (let* ((pos (ey-find-key ey-typo-file "expecteed_facts"))
         (chosen nil))
    (ey-goto (car pos) (+ 2 (cdr pos)))
    (ey-wait (lambda () (cl-find-if (lambda (d) (string-match-p "EY205" (flymake-diagnostic-text d)))
                                    (ey-diagnostics)))
             "an EY205 diagnostic")
    ;; What M-x eglot-code-action-quickfix does, with the menu answered by a stub.
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (let ((hit (cl-find-if (lambda (c) (string-match-p "expected_facts" (car c))) collection)))
                   (setq chosen (car (or hit (car collection))))
                   chosen)))
              (last-nonmenu-event 13))
      (eglot-code-actions (line-beginning-position) (line-end-position) "quickfix" t))
    (let ((text (buffer-substring-no-properties (line-beginning-position) (line-end-position))))
      (ey-revert)
      (unless (string-match-p "^\\s-*\\(?:-\\s-+\\)?expected_facts\\s-*:" text)
        (error "after %S line %d reads %S" chosen (car pos) text))
      (format "%s -> line %d: %s" (or chosen "the only quick fix") (car pos) (string-trim text)))))

(ey-check "(e) YAML that is not an eval file gets nothing from evalyaml"
  (ey-open ey-not-ours)
  (let ((line (car (ey-find-key ey-not-ours "kind"))))
    (ey-blank-kind-value line)
    (let ((labels (ey-completions)))
      (ey-revert)
      (let ((end (+ (float-time) 3)))
        (while (and (< (float-time) end) (null (ey-evalyaml-diags)))
          (accept-process-output nil 0.1)))
      (when (ey-evalyaml-diags)
        (error "diagnostics: %s" (mapconcat #'flymake-diagnostic-text (ey-evalyaml-diags) " | ")))
      (let ((offered (cl-intersection ey-kinds labels :test #'equal)))
        (when offered
          (error "completion offered check kinds: %s" (string-join offered ", "))))
      "no diagnostics, no check kinds")))

;; What `evalyaml check` says about a file, and what Flymake shows, as comparable strings:
;; "CODE LINE:COL-LINE:COL MESSAGE", 0-based lines, columns in characters (code points, as the
;; CLI counts them).
(defun ey-cli-findings (rel)
  (with-temp-buffer
    (let* ((default-directory ey-ws)
           (status (call-process "evalyaml" nil t nil "check" "--format" "json" rel)))
      (unless (memq status '(0 1))
        (error "evalyaml check %s exited with %s: %s" rel status (buffer-string))))
    (goto-char (point-min))
    (let ((findings (json-parse-buffer :object-type 'alist :array-type 'list)))
      (sort (mapcar (lambda (f)
                      (let* ((range (alist-get 'range f))
                             (start (alist-get 'start range))
                             (end (alist-get 'end range)))
                        (format "%s %d:%d-%d:%d %s" (alist-get 'code f)
                                (alist-get 'line start) (alist-get 'character start)
                                (alist-get 'line end) (alist-get 'character end)
                                (alist-get 'message f))))
                    findings)
            #'string<))))

(defun ey-line-col (pos)
  (save-excursion
    (goto-char pos)
    (format "%d:%d" (1- (line-number-at-pos)) (- pos (line-beginning-position)))))

(defun ey-flymake-findings ()
  "Flymake's evalyaml diagnostics here, as `ey-cli-findings' writes them. Eglot 1.9 shows
\"[evalyaml] CODE: message\"-like texts: the code and message are taken from the LSP data."
  (sort (mapcar (lambda (d)
                  (let* ((data (flymake-diagnostic-data d))
                         (lsp (or (alist-get 'eglot-lsp-diag data) data))
                         (code (or (and (listp lsp) (plist-get lsp :code)) "?"))
                         (message (or (and (listp lsp) (plist-get lsp :message))
                                      (flymake-diagnostic-text d))))
                    (format "%s %s-%s %s" code (ey-line-col (flymake-diagnostic-beg d))
                            (ey-line-col (flymake-diagnostic-end d)) message)))
                (ey-evalyaml-diags))
        #'string<))

(defun ey-same-as-cli (rel mode)
  (let ((want (ey-cli-findings rel))
        (got nil))
    (unless want (error "the CLI finds nothing in %s: not a mistake file" rel))
    (with-current-buffer (find-file-noselect (expand-file-name rel ey-ws))
      (unless (eq major-mode mode) (error "%s opened in %s, expected %s" rel major-mode mode)))
    (ey-open rel)
    (let ((end (+ (float-time) ey-timeout)))
      (while (and (not (equal (setq got (ey-flymake-findings)) want)) (< (float-time) end))
        (accept-process-output nil 0.2)))
    (unless (equal got want)
      (error "diagnostics of %s:\n  got  %S\n  want %S" rel got want))
    (format "%s (%s): %s" rel mode (truncate-string-to-width (string-join want " | ") 120))))

(defconst ey-eee-json "eee/mistakes/EY700-unknown-version/data/arith-demo/acme/tiny-model/5c4b3a29-1807-4f6e-9d5c-4b3a29180706.json")
(defconst ey-eee-jsonl "eee/mistakes/EY704-unknown-row-key/data/arith-demo/acme/tiny-model/5c4b3a29-1807-4f6e-9d5c-4b3a29180706_samples.jsonl")
(defconst ey-apastra-json "apastra/mistakes/derived-index/baselines/EY804-malformed-digest.json")
(defconst ey-prompt "agentv/evals/prompts/support-grader.md")
(make-directory (expand-file-name "tools" ey-ws) t)
(with-temp-file (expand-file-name "tools/build.js" ey-ws)
  (insert "const config = { checks: [] };\nmodule.exports = config;\n"))

(ey-check "(f) a JSON file (Every Eval Ever aggregate) gets the diagnostics the CLI gives"
  (ey-same-as-cli ey-eee-json 'js-json-mode))

(ey-check "(g) a JSON file (Apastra baseline) gets the diagnostics the CLI gives"
  (ey-same-as-cli ey-apastra-json 'js-json-mode))

(ey-check "(h) a JSON Lines file (Every Eval Ever samples) gets the diagnostics the CLI gives"
  (ey-same-as-cli ey-eee-jsonl 'jsonl-mode))

(ey-check "(i) a Markdown grader prompt an AgentV suite names is checked as it is edited"
  (ey-open ey-prompt)
  (unless (derived-mode-p 'markdown-mode) (error "opened in %s" major-mode))
  (goto-char (point-min))
  (search-forward "{{ output }}")
  (let* ((beg (+ (match-beginning 0) 3))
         (where (ey-line-col beg)))
    (goto-char beg)
    (delete-char 6)
    (insert "ouput")
    ;; What Eglot's idle timer does after an edit (idle timers do not run in batch mode).
    (eglot--signal-textDocument/didChange)
    (let ((hit (condition-case err
                   (ey-wait (lambda ()
                              (cl-find-if (lambda (f) (string-prefix-p "EY624 " f)) (ey-flymake-findings)))
                            "an EY624 diagnostic")
                 (error (error "%s; Flymake has %S" (error-message-string err)
                               (mapcar #'flymake-diagnostic-text (ey-diagnostics)))))))
      (ey-revert)
      (unless (string-prefix-p (format "EY624 %s-" where) hit)
        (error "EY624 is %S, expected it at %s" hit where))
      hit)))

(ey-check "(j) JavaScript buffers are left to their own server"
  (let ((buf (find-file-noselect (expand-file-name "tools/build.js" ey-ws))))
    (set-buffer buf)
    (unless (provided-mode-derived-p major-mode 'js-mode)
      (error "tools/build.js opened in %s" major-mode))
    (when (derived-mode-p 'js-json-mode)
      (error "tools/build.js opened in %s, a JSON mode" major-mode))
    (when (string-match-p "evalyaml" (format "%S" (eglot--lookup-mode major-mode)))
      (error "Eglot would start evalyaml for %s: %S" major-mode (eglot--lookup-mode major-mode)))
    (prog1 (format "tools/build.js in %s, no evalyaml" major-mode)
      (kill-buffer buf))))

(ey-check "(k) Markdown that no suite names gets nothing from evalyaml"
  (ey-open "README.md")
  (goto-char (point-min))
  (insert "Grade {{ ouput }} here.\n")
  (eglot--signal-textDocument/didChange)
  (let ((end (+ (float-time) 3)))
    (while (and (< (float-time) end) (null (ey-evalyaml-diags)))
      (accept-process-output nil 0.1)))
  (let ((diags (ey-evalyaml-diags)))
    (ey-revert)
    (when diags
      (error "diagnostics: %s" (mapconcat #'flymake-diagnostic-text diags " | "))))
  (format "README.md in %s, managed by evalyaml: no diagnostics" major-mode))

(ey-out "%d passed, %d failed" ey-passed ey-failed)
(ignore-errors (eglot-shutdown-all))
(kill-emacs (if (> ey-failed 0) 1 0))
;;; check.el ends here
