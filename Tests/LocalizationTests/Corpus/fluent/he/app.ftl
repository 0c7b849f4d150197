## Hebrew: messages of a sample app

welcome = שלום { $user }, ברוך הבא ל־{ -app }
-app = Thunderbird
unread-emails =
    { $unreadEmails ->
        [one] יש לך הודעה שלא נקראה
       *[other] יש לך { $unreadEmails } הודעות שלא נקראו
    }
version = Thunderbird { $version } זמין
login-button =
    .label = התחברות
    .title = { $site } התחברות לאתר
