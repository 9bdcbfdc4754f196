package io.rwsplit.internal.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedNativeQuery;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.QueryHint;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

@Entity
@Table(name = "person")
@NamedQuery(name = "Person.nameById", query = "select p.name from Person p where p.id = :id")
@NamedQuery(name = "Person.nameByIdAgain", query = "select p.name from Person p where p.id = :id")
@NamedQuery(name = "Person.byName", query = "select p from Person p where p.name = :name")
@NamedQuery(name = "Person.nameByIdCommented", query = "select p.name from Person p where p.id = :id",
        hints = @QueryHint(name = "org.hibernate.comment", value = "names for the report"))
@NamedQuery(name = "Person.rename", query = "update Person p set p.name = :name where p.id = :id")
@NamedNativeQuery(name = "Person.nativeName", query = "select name from person where id = ?")
@NamedNativeQuery(name = "Person.nativeNameCommented", query = "select name from person where id = ?",
        hints = @QueryHint(name = "org.hibernate.comment", value = "native names"))
public class Person {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "person_seq")
    @SequenceGenerator(name = "person_seq", sequenceName = "person_seq", allocationSize = 1)
    public Long id;

    public String name;

    public Person() {
    }

    public Person(String name) {
        this.name = name;
    }
}
