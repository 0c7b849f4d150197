// تحية
export function greet(name: string): string {
  return `שלום ⟦FSI⟧${name}⟦PDI⟧!`;
}
const label: string = "עברית⟦RLM⟧ 1"; // ⟦LRI⟧ok⟦PDI⟧
