/// Word lists the generators draw from. Small on purpose: what matters to a
/// bidi implementation is the mix of character classes and run lengths, not
/// the variety of words.
enum Vocabulary {
  /// Arabic words, a few with harakat (nonspacing marks, UAX #9 class NSM).
  static let arabic = [
    "مرحبا", "العالم", "كتاب", "مدينة", "الطالب", "جميل", "اليوم", "السلام",
    "عليكم", "المدرسة", "الشمس", "القمر", "البحر", "سيارة", "حديقة", "الحاسوب",
    "البرنامج", "الملف", "النص", "اللغة", "العربية", "الاتجاه", "من", "في",
    "على", "إلى", "عن", "مع", "هذا", "التي", "مُحَمَّد", "كَتَبَ", "الْكِتَابُ",
    "مدفوعات", "بدون", "فوائد", "الرسالة", "المستخدم", "الإعدادات", "حفظ",
  ]

  static let hebrew = [
    "שלום", "עולם", "ספר", "עיר", "תלמיד", "יפה", "היום", "בית",
    "ספרייה", "שמש", "ירח", "ים", "מכונית", "גן", "מחשב", "תוכנה",
    "קובץ", "טקסט", "שפה", "עברית", "כיוון", "של", "את", "על",
    "עם", "זה", "אני", "הוא", "היא", "לא", "הודעה", "משתמש", "הגדרות", "שמור",
  ]

  static let english = [
    "the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "server",
    "client", "request", "response", "file", "line", "text", "direction",
    "order", "level", "paragraph", "window", "editor", "cursor", "user",
    "message", "settings", "save", "open", "close", "version", "update",
    "network", "account", "payment", "interest", "free", "with", "from", "and",
    "of", "to", "in", "is", "for", "on", "that", "this", "Apple", "Google",
    "iPhone", "Android", "Linux", "Unicode",
  ]

  /// Identifier parts for the source-code corpora (ASCII only).
  static let identifiers = [
    "user", "name", "count", "index", "item", "list", "value", "result",
    "buffer", "offset", "length", "line", "text", "level", "run", "map",
    "config", "error", "status", "message", "handler", "request", "data",
    "cache", "node", "tree", "key", "start", "end", "total",
  ]

  static let types = ["Int", "String", "Bool", "Double", "[UInt8]", "Data", "URL", "Message?"]

  static let urls = [
    "https://www.example.com/path/to/page?id=123&lang=ar",
    "http://example.org/docs/bidi.html#section-3",
    "https://he.wikipedia.org/wiki/Unicode",
    "www.example.net/a/b/c",
    "ftp://files.example.com/pub/file-2.tar.gz",
  ]

  static let emails = ["support@example.com", "@handle", "user.name+tag@mail.example.org"]

  /// Supplementary-plane symbols (4 UTF-8 bytes, a UTF-16 surrogate pair).
  static let emoji = ["😀", "👍", "🎉", "📄", "🚀"]
}
