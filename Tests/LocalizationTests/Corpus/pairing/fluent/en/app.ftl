welcome = Welcome, { $user }!
files = { $count } files in { $folder }
open-brand = Open { -brand-name }
-brand-name = Firefox
